"""The nearby API's catalogs, held in memory across warm invocations.

A show's catalog is read once, then revalidated with a conditional GET at most once every
`revalidate_after` seconds; in between, requests cost no S3 request at all. A show without a
catalog is remembered the same way, so unknown shows do not cost a GET each either.
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
MAX_SHOWS = 64  # the shows held at once; the one read longest ago goes first


@dataclass(frozen=True)
class Held:
    index: "CatalogIndex | None"  # None: the show has no catalog
    etag: str | None
    checked: float  # the clock's reading when S3 last confirmed it


class CatalogCache:
    def __init__(
        self,
        source: SourceBucket,
        revalidate_after: float = REVALIDATE_AFTER,
        clock: Callable[[], float] = time.monotonic,
        max_shows: int = MAX_SHOWS,
    ):
        self.source = source
        self.revalidate_after = revalidate_after
        self.clock = clock
        self.max_shows = max_shows
        self._held: dict[str, Held] = {}

    def get(self, show: str) -> tuple["CatalogIndex", str]:
        """The show's catalog and its revision (the catalog object's ETag)."""
        now = self.clock()
        held = self._held.get(show)
        if held is None or now - held.checked >= self.revalidate_after:
            held = self._read(show, held, now)
        if held.index is None or held.etag is None:
            raise UnknownShow(show)
        return held.index, held.etag

    def _read(self, show: str, held: Held | None, now: float) -> Held:
        # Reading catalogs (json, isodate) loads with the first request, not in every cold start.
        from podpages.nearby.index import CatalogIndex

        try:
            stored = self.source.read_catalog(show, held_etag=held.etag if held else None)
        except Unchanged:
            assert held is not None  # S3 answers 304 only to the ETag of a copy held
            fresh = replace(held, checked=now)
        else:
            fresh = Held(CatalogIndex.from_json(stored.body), stored.etag, now) if stored else Held(None, None, now)
        self._held.pop(show, None)
        self._held[show] = fresh
        while len(self._held) > self.max_shows:
            del self._held[next(iter(self._held))]
        return fresh
