"""A rebuild, as messages on the rebuild queue. Each re-renders part of one show from its
catalog, or the site's own files, so that one message's work stays well inside the render
function's timeout however large the show."""

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from podpages.catalog_index import CatalogIndex
from podpages.errors import ContractError, Problem
from podpages.source_keys import SLUG
from podpages.storage import SourceBucket

EPISODES_PER_REQUEST = 250  # a few seconds of rendering and writing


@dataclass(frozen=True)
class RebuildRequest:
    show: str | None = None  # None: the site's own files (sitemap index, robots.txt, default cover)
    episodes: tuple[str, ...] = ()  # the episode pages to render again
    listings: bool = False  # the show's archives, page, sitemap parts and feed

    def message(self) -> str:
        request = {"site": True} if self.show is None else {"show": self.show}
        if self.episodes:
            request["episodes"] = list(self.episodes)
        if self.listings:
            request["listings"] = True
        return json.dumps({"rebuild": request})


def rebuild_request(body: str) -> RebuildRequest | None:
    """The rebuild a queue message asks for; None when the message is something else."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or "rebuild" not in message:
        return None
    request = message["rebuild"]
    if not isinstance(request, dict):
        raise ContractError([Problem("rebuild", "must be an object")])
    problems = []
    if unknown := sorted(set(request) - {"show", "site", "episodes", "listings"}):
        problems.append(Problem("rebuild", f"unknown fields {unknown}"))
    if request.get("site") is True:
        if set(request) != {"site"}:
            problems.append(Problem("rebuild.site", "a site rebuild names no show, episodes or listings"))
        _raise_any(problems)
        return RebuildRequest()
    show, episodes, listings = request.get("show"), request.get("episodes", []), request.get("listings", False)
    if not isinstance(show, str) or not SLUG.match(show):
        problems.append(Problem("rebuild.show", f"must be a show slug matching {SLUG.pattern}"))
    if not isinstance(episodes, list):
        problems.append(Problem("rebuild.episodes", "must be a list of episode slugs"))
        episodes = []
    problems += [
        Problem(f"rebuild.episodes[{index}]", f"must be an episode slug matching {SLUG.pattern}")
        for index, slug in enumerate(episodes)
        if not isinstance(slug, str) or not SLUG.match(slug)
    ]
    if not isinstance(listings, bool):
        problems.append(Problem("rebuild.listings", "must be true or false"))
    _raise_any(problems)
    return RebuildRequest(show, tuple(episodes), listings)


def rebuild_requests(source: SourceBucket, shows: Iterable[str] | None = None) -> Iterator[RebuildRequest]:
    """Requests that re-render every page of `shows` from their catalogs, or of every show and the
    site's own files when `shows` is None. A named show with no catalog is an error."""
    everything = shows is None
    for show in sorted(source.list_shows() if everything else set(shows)):
        if not SLUG.match(show):
            raise ValueError(f"show {show!r} is not a show slug: it must match {SLUG.pattern}")
        stored = source.read_catalog(show)
        if stored is None:
            raise ValueError(f"show {show!r} has no catalog, so nothing of it is published to rebuild")
        slugs = [episode.slug for episode in CatalogIndex.from_json(stored.body).episodes]
        for start in range(0, len(slugs), EPISODES_PER_REQUEST):
            yield RebuildRequest(show, tuple(slugs[start : start + EPISODES_PER_REQUEST]))
        yield RebuildRequest(show, listings=True)
    if everything:
        yield RebuildRequest()


def _raise_any(problems: list[Problem]) -> None:
    if problems:
        raise ContractError(problems)
