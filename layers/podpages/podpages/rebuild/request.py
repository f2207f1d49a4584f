"""A rebuild, as messages on the rebuild queue. Each re-renders part of one show from its
catalog, or the site's own files, so that one message's work stays well inside the render
function's timeout however large the show."""

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from podpages.catalog.layout import read_index, read_page
from podpages.catalog.stored import CATALOG_VERSION, leading_version, load_catalog, page_key_name
from podpages.contract.documents import problems
from podpages.contract.source_keys import SLUG, is_slug
from podpages.errors import CatalogConflict, ContractError
from podpages.storage.source_bucket import SourceBucket

EPISODES_PER_REQUEST = 250  # a few seconds of rendering and writing


@dataclass(frozen=True)
class RebuildRequest:
    show: str | None = None  # None: the site's own files (sitemap index, robots.txt, default cover)
    episodes: tuple[str, ...] = ()  # the episode pages to render again
    listings: bool = False  # the show's archives, page, sitemap parts and feed

    def message(self) -> str:
        if self.show is None:
            wire = _Rebuild(site=True)
        else:
            wire = _Rebuild(show=self.show, episodes=list(self.episodes), listings=self.listings)
        return _Message(rebuild=wire).model_dump_json(exclude_defaults=True)


Slug = Annotated[str, Field(pattern=SLUG.pattern)]


class _Rebuild(BaseModel):
    """A request as the queue carries it: `{"show": ..., "episodes": [...], "listings": true}` or `{"site": true}`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    show: Slug | None = None
    site: Literal[True] | None = None
    episodes: list[Slug] = []
    listings: bool = False

    @model_validator(mode="after")
    def _one_target(self) -> "_Rebuild":
        if (self.show is None) == (self.site is None):
            raise ValueError('names either a show or the site ("site": true)')
        if self.site and (self.episodes or self.listings):
            raise ValueError("a site rebuild names no episodes or listings")
        return self


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    rebuild: _Rebuild


def rebuild_request(body: str) -> RebuildRequest | None:
    """The rebuild a queue message asks for; None when the message is something else."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or "rebuild" not in message:
        return None
    try:
        wire = _Message.model_validate(message).rebuild
    except ValidationError as error:
        raise ContractError(problems(error)) from None
    return RebuildRequest(wire.show, tuple(wire.episodes), wire.listings)


def rebuild_requests(source: SourceBucket, shows: Iterable[str] | None = None) -> Iterator[RebuildRequest]:
    """Requests that re-render every page of `shows` from their catalogs, or of every show and the
    site's own files when `shows` is None. A named show with no catalog is an error."""
    everything = shows is None
    for show in sorted(source.list_shows() if shows is None else set(shows)):
        if not is_slug(show):
            raise ValueError(f"show {show!r} is not a show slug: it must match {SLUG.pattern}")
        stored = source.read_catalog(show)
        if stored is None:
            raise ValueError(f"show {show!r} has no catalog, so nothing of it is published to rebuild")
        slugs = _slugs(source, show, stored.body)
        for start in range(0, len(slugs), EPISODES_PER_REQUEST):
            yield RebuildRequest(show, tuple(slugs[start : start + EPISODES_PER_REQUEST]))
        yield RebuildRequest(show, listings=True)
    if everything:
        yield RebuildRequest()


def _slugs(source: SourceBucket, show: str, body: bytes) -> list[str]:
    """Every episode's slug, in publish order: from the catalog's frozen pages and its index
    (`catalog.layout`), or from a catalog of one object, as an earlier podpages stored it."""
    if leading_version(body) == CATALOG_VERSION:
        return [entry["slug"] for entry in load_catalog(body)["episodes"]]
    index = read_index(body.splitlines())
    names = [page_key_name(page, summary.digest) for page, summary in enumerate(index.pages, 1)]
    slugs = []
    for _name, page in source.read_catalog_pages(show, names):  # each parsed as it is read, its bytes let go
        if page is None:
            raise CatalogConflict(show)  # committed over since: the message is tried again
        slugs += [entry.slug for entry in read_page(page, index).episodes]
    return slugs + [entry.slug for entry in index.episodes]
