"""The nearby API's catalogs, held in memory across warm invocations.

A show's catalog is read once (its nearby index, the first line of its index: `catalog.layout`),
then revalidated with a conditional GET at most once every `revalidate_after` seconds; in between,
requests cost no S3 request at all. A show without a catalog is remembered the same way, so unknown
shows do not cost a GET each either. Unknown shows
are remembered apart from the catalogs: a visitor can ask for any number of them at no cost, and
were they held with the catalogs, each would push a real catalog out, to be read whole again.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from podpages.errors import UnknownShow
from podpages.storage.s3 import Unchanged
from podpages.storage.source_bucket import SourceBucket

if TYPE_CHECKING:
    from podpages.nearby.index import CatalogIndex

REVALIDATE_AFTER = 5.0  # seconds
MAX_SHOWS = 64  # the catalogs held at once; the one read longest ago goes first
MAX_PART_READS = 3  # times a listing reads the index again when a part it names is gone
MAX_UNKNOWN_SHOWS = 1024  # the unknown shows remembered at once, a name and a time each; likewise


class PartGone(Exception):
    """A part of a show's nearby index, named by the index held, is no longer stored."""


@dataclass(frozen=True)
class Held:
    index: "CatalogIndex"
    etag: str
    checked: float  # the clock's reading when S3 last confirmed it


class CatalogCache:
    def __init__(
        self,
        source: SourceBucket,
        revalidate_after: float = REVALIDATE_AFTER,
        clock: Callable[[], float] = time.monotonic,
        max_shows: int = MAX_SHOWS,
        max_unknown_shows: int = MAX_UNKNOWN_SHOWS,
    ):
        self.source = source
        self.revalidate_after = revalidate_after
        self.clock = clock
        self.max_shows = max_shows
        self.max_unknown_shows = max_unknown_shows
        self._held: dict[str, Held] = {}
        self._unknown: dict[str, float] = {}  # show -> the clock's reading when S3 last found no catalog

    def restore(self, source: SourceBucket) -> None:
        """Start again from `source`, holding nothing: what a copy resumed from a SnapStart snapshot
        needs, since the copies share what the snapshot held and S3 may have changed since."""
        self.source = source
        self._held.clear()
        self._unknown.clear()

    def get(self, show: str) -> tuple["CatalogIndex", str]:
        """The show's catalog and its revision (the catalog object's ETag)."""
        now = self.clock()
        held = self._held.get(show)
        if held is None and self._fresh(self._unknown.get(show), now):
            raise UnknownShow(show)  # S3 found no catalog within the interval
        if held is None or not self._fresh(held.checked, now):
            held = self._read(show, held, now)
        if held is None:
            raise UnknownShow(show)
        return held.index, held.etag

    def listing(self, show: str, slug: str, count: int) -> "CatalogIndex":
        """The show's catalog, with the parts of its nearby index read that the listing of `count`
        around `slug` needs. A part that a newer index replaced since the one held
        was read is gone: the index is then read again."""
        for attempt in range(MAX_PART_READS):
            index, _revision = self.get(show)
            try:
                while wanted := index.wanted(slug, count):
                    for number, page in wanted:
                        if (body := self.source.read_nearby_part(show, number, page)) is None:
                            raise PartGone(show)
                        index.add(page.digest, body)
            except PartGone:
                if attempt == MAX_PART_READS - 1:
                    raise
                self._held.pop(show, None)
                continue
            index.position(slug)  # an unknown episode is a 404, even to a conditional request
            return index
        raise AssertionError("unreachable")

    def _fresh(self, checked: float | None, now: float) -> bool:
        return checked is not None and now - checked < self.revalidate_after

    def _read(self, show: str, held: Held | None, now: float) -> Held | None:
        # Reading catalogs (json, isodate) loads with the first request, not in every cold start.
        from podpages.catalog.stored import NEARBY_LINE_SINCE, leading_version
        from podpages.nearby.index import CatalogIndex

        held_etag = held.etag if held else None
        try:
            stored, read = self.source.read_first_line(show, held_etag), CatalogIndex.from_nearby_json
            if stored is not None and (leading_version(stored.body) or 0) < NEARBY_LINE_SINCE:
                # Stored by an earlier podpages, until its next publish or the deploy's rebuild: the
                # nearby index apart, or none yet for a show published before nearby indexes existed.
                stored = self.source.read_nearby_index(show, held_etag)
                if stored is None:
                    stored, read = self.source.read_catalog(show, held_etag), CatalogIndex.from_json
        except Unchanged:
            assert held is not None  # S3 answers 304 only to the ETag of a copy held
            fresh = replace(held, checked=now)
        else:
            if stored is None:
                self._held.pop(show, None)
                _remember(self._unknown, show, now, self.max_unknown_shows)
                return None
            fresh = Held(read(stored.body), stored.etag, now)
            if held:
                fresh.index.keep(held.index)
        self._unknown.pop(show, None)
        _remember(self._held, show, fresh, self.max_shows)
        return fresh


def _remember[V](store: dict[str, V], show: str, value: V, most: int) -> None:
    """Keep `value` as the newest of `store`, dropping the oldest beyond `most`."""
    store.pop(show, None)
    store[show] = value
    while len(store) > most:
        del store[next(iter(store))]
