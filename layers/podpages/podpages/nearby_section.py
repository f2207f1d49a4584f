"""The "Nearby episodes" section, nearby.html: the API's HTML fragment is this section alone, and the
episode page shows it, so the two are one rendering.

Each episode's link in it is rendered once a process (`nearby_link`): a page lists 8 neighbours,
each of them listed on 8 pages, and rendering the links anew on every page made each page about a
tenth slower to render."""

from collections.abc import Sequence
from functools import lru_cache
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


# Links kept rendered: a worker of `podpages render` renders runs of up to 1,000 consecutive episodes,
# and the nearby API's warm process answers for episodes of many shows.
KEPT_LINKS = 4096


@lru_cache(maxsize=KEPT_LINKS)
def nearby_link(site_url: str, show: str, slug: str, title: str) -> Markup:
    """An episode's line in the section, nearby-link.html: the same on every page that lists it."""
    return Markup(render("nearby-link.html", site_url=site_url, show=show, slug=slug, title=title, paths=site_paths))


def nearby_section(show: str, show_title: str, nearby: Sequence[Listed], site_url: str) -> Markup:
    """The section listing `nearby`; empty when there is nothing to list."""
    links = [nearby_link(site_url, show, item.slug, item.title) for item in nearby]
    return Markup(render("nearby.html", show_title=show_title, links=links))
