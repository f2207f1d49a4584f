"""The "Nearby episodes" section, nearby.html: the API's HTML fragment renders it alone, and the
episode page includes it, so the two are one rendering."""

from collections.abc import Sequence
from typing import Protocol

from markupsafe import Markup

from podpages import site_paths
from podpages.templating import render


class Listed(Protocol):
    """An episode as a listing names it: a catalog entry on the page, an indexed episode in the API."""

    @property
    def slug(self) -> str: ...

    @property
    def title(self) -> str: ...


def nearby_section(show: str, show_title: str, nearby: Sequence[Listed], site_url: str) -> Markup:
    """The section listing `nearby`; empty when there is nothing to list."""
    return Markup(
        render("nearby.html", show=show, show_title=show_title, nearby=nearby, site_url=site_url, paths=site_paths)
    )
