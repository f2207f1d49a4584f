"""A show's catalog reduced to what the nearby API serves.

It is read from the show's nearby index (`catalog.nearby_index`), or from the whole catalog where a
site published before the index existed has none yet, with the standard library (`catalog.stored`),
not through the contract models, so the API's cold start stays light. The episodes keep the catalog's
publish order, and a slug is found through a dictionary built once, when the index is read.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import overload

from podpages.catalog.nearby import nearby, nearby_span
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.stored import (
    SLUG_HASH_DIGITS,
    NearbyPage,
    StoredEntry,
    StoredNearbyEpisode,
    holds_hash,
    load_catalog,
    load_nearby_index,
    load_nearby_part,
    slug_hash,
)
from podpages.durations import iso_duration, json_seconds, parse_duration, total_seconds
from podpages.errors import UnknownEpisode
from podpages.moments import rfc3339


@dataclass(frozen=True, slots=True)
class IndexedEpisode:
    slug: str
    title: str
    published: str  # RFC 3339, in UTC, as the page prints it
    duration: str  # ISO 8601, as the catalog keeps it
    duration_seconds: int


type Row = StoredNearbyEpisode  # slug, title, published, seconds


@dataclass(frozen=True)
class Part:
    """A frozen page's rows, and where each slug's row is."""

    rows: list[Row]
    positions: dict[str, int]

    @classmethod
    def of(cls, rows: list[Row]) -> "Part":
        return cls(rows, {row[0]: position for position, row in enumerate(rows)})


@dataclass(frozen=True)
class CatalogIndex:
    """The show's episodes as the nearby index stores them, one row each, and where each slug sits.
    A row becomes an `IndexedEpisode` only when a listing names it, so a cold read costs a JSON parse
    and one dictionary, not an object for each of the show's episodes.

    The rows of the show's frozen pages are in parts, read only when a listing needs them: `wanted`
    names those to read, `add` takes them in. Positions count from the show's oldest episode."""

    show: str
    show_title: str
    rows: list[Row]  # the head: the episodes after the frozen pages, in publish order, oldest first
    positions: dict[str, int]  # where each slug's row is among them
    pages: list[NearbyPage] = field(default_factory=list)  # each frozen page: its slugs' hashes, its part
    bounds: PageBounds = PageBounds(())  # the frozen pages', from the counts of their slugs' hashes
    parts: dict[str, Part] = field(default_factory=dict, compare=False)  # the parts read so far, by digest

    @classmethod
    def from_json(cls, body: bytes) -> "CatalogIndex":
        """From the whole catalog's JSON."""
        catalog = load_catalog(body)
        document = catalog["document"]
        # A show without its document is titled by its slug, as its pages are.
        title = document["title"] if document else catalog["show"]
        return cls._of(catalog["show"], title, [_row(entry) for entry in catalog["episodes"]])

    @classmethod
    def from_nearby_json(cls, body: bytes) -> "CatalogIndex":
        """From the show's nearby index."""
        index = load_nearby_index(body)
        return cls._of(index["show"], index["title"], _tuples(index["episodes"]), index["pages"])

    @classmethod
    def _of(cls, show: str, title: str, rows: list[Row], pages: list[NearbyPage] | None = None) -> "CatalogIndex":
        bounds = PageBounds.of_counts(len(page.hashes) // SLUG_HASH_DIGITS for page in pages or [])
        return cls(show, title, rows, Part.of(rows).positions, pages or [], bounds)

    @property
    def offset(self) -> int:
        """How many episodes the frozen pages hold, all older than the head's."""
        return self.bounds.start(len(self.pages) + 1)

    def keep(self, earlier: "CatalogIndex") -> None:
        """Take over the parts an earlier index of the show had read that this one still names."""
        named = {page.digest for page in self.pages}
        self.parts.update((digest, part) for digest, part in earlier.parts.items() if digest in named)

    def wanted(self, slug: str, count: int) -> list[tuple[int, NearbyPage]]:
        """The parts, by page number, to read before the listing of `count` around `slug` can be
        given: first those of the pages that may hold it, then those of the pages its neighbours are on."""
        if slug not in self.positions:
            wanted = slug_hash(slug)
            candidates = [
                (number, page)
                for number, page in enumerate(self.pages, 1)
                if page.digest not in self.parts and holds_hash(page.hashes, wanted)
            ]
            if candidates:
                return candidates
        position = self._position(slug)
        if position is None:
            return []
        start, stop = nearby_span(len(_Rows(self)), position, count)
        if start >= self.offset:
            return []
        pages = range(self.bounds.page_of(start), self.bounds.page_of(min(stop, self.offset) - 1) + 1)
        return [(page, self.pages[page - 1]) for page in pages if self.pages[page - 1].digest not in self.parts]

    def add(self, digest: str, body: bytes) -> None:
        """A part, as read from S3."""
        self.parts[digest] = Part.of(_tuples(load_nearby_part(body)["episodes"]))

    @property
    def episodes(self) -> list[IndexedEpisode]:
        """Every episode, in publish order: all rows at once, for a reader that wants them all."""
        return [_episode(*row) for row in _Rows(self)]

    def _position(self, slug: str) -> int | None:
        if (position := self.positions.get(slug)) is not None:
            return self.offset + position
        for page, named in enumerate(self.pages, 1):
            if (part := self.parts.get(named.digest)) and (position := part.positions.get(slug)) is not None:
                return self.bounds.start(page) + position
        return None

    def position(self, slug: str) -> int:
        if (position := self._position(slug)) is None:
            raise UnknownEpisode(self.show, slug)
        return position

    def row(self, position: int) -> Row:
        if position >= self.offset:
            return self.rows[position - self.offset]
        page = self.bounds.page_of(position)
        return self.parts[self.pages[page - 1].digest].rows[position - self.bounds.start(page)]

    def episode(self, slug: str) -> IndexedEpisode:
        return _episode(*self.row(self.position(slug)))

    def nearby(self, slug: str, count: int) -> list[IndexedEpisode]:
        """The episode's nearby episodes, by the same rule the episode pages use."""
        return [_episode(*row) for row in nearby(_Rows(self), self.position(slug), count)]


class _Rows(Sequence[Row]):
    """The index's rows by position, the frozen pages' from the parts read."""

    def __init__(self, index: CatalogIndex):
        self.catalog = index

    def __len__(self) -> int:
        return self.catalog.offset + len(self.catalog.rows)

    @overload
    def __getitem__(self, position: int) -> Row: ...
    @overload
    def __getitem__(self, position: slice) -> list[Row]: ...
    def __getitem__(self, position: int | slice) -> Row | list[Row]:
        if isinstance(position, slice):
            return [self.catalog.row(at) for at in range(*position.indices(len(self)))]
        return self.catalog.row(position)


def _tuples(rows: list[Row]) -> list[Row]:
    # JSON reads each row back as a list; as a tuple, it compares equal to the catalog's own.
    return [(slug, title, published, seconds) for slug, title, published, seconds in rows]


def _row(entry: StoredEntry) -> StoredNearbyEpisode:
    """A catalog entry's row, as the nearby index stores it (`catalog.nearby_index`)."""
    episode = entry["episode"]
    published = rfc3339(datetime.fromisoformat(episode["published"]))
    seconds = json_seconds(parse_duration(episode["duration"]).total_seconds())
    return (entry["slug"], episode["title"], published, seconds)


def _episode(slug: str, title: str, published: str, seconds: float) -> IndexedEpisode:
    duration = timedelta(seconds=seconds)
    return IndexedEpisode(slug, title, published, iso_duration(duration), total_seconds(duration))
