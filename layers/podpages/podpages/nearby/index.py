"""A show's catalog reduced to what the nearby API serves.

It is read from the show's nearby index (`catalog.nearby_index`), or from the whole catalog where a
site published before the index existed has none yet, with the standard library (`catalog.stored`),
not through the contract models, so the API's cold start stays light. The episodes keep the catalog's
publish order, and a slug is found through a dictionary built once, when the index is read.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from podpages.catalog.nearby import nearby
from podpages.catalog.stored import StoredEntry, StoredNearbyEpisode, load_catalog, load_nearby_index
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


@dataclass(frozen=True)
class CatalogIndex:
    """The show's episodes as the nearby index stores them, one row each, and where each slug sits.
    A row becomes an `IndexedEpisode` only when a listing names it, so a cold read costs a JSON parse
    and one dictionary, not an object for each of the show's episodes."""

    show: str
    show_title: str
    rows: list[StoredNearbyEpisode]  # publish order, oldest first: slug, title, published, seconds
    positions: dict[str, int]  # where each slug's row is

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
        # JSON reads each row back as a list; as a tuple, it compares equal to the catalog's own.
        rows = [(slug, title, published, seconds) for slug, title, published, seconds in index["episodes"]]
        return cls._of(index["show"], index["title"], rows)

    @classmethod
    def _of(cls, show: str, title: str, rows: list[StoredNearbyEpisode]) -> "CatalogIndex":
        return cls(show, title, rows, {row[0]: position for position, row in enumerate(rows)})

    @property
    def episodes(self) -> list[IndexedEpisode]:
        """Every episode, in publish order: all rows at once, for a reader that wants them all."""
        return [_episode(*row) for row in self.rows]

    def position(self, slug: str) -> int:
        if (position := self.positions.get(slug)) is None:
            raise UnknownEpisode(self.show, slug)
        return position

    def episode(self, slug: str) -> IndexedEpisode:
        return _episode(*self.rows[self.position(slug)])

    def nearby(self, slug: str, count: int) -> list[IndexedEpisode]:
        """The episode's nearby episodes, by the same rule the episode pages use."""
        return [_episode(*row) for row in nearby(self.rows, self.position(slug), count)]


def _row(entry: StoredEntry) -> StoredNearbyEpisode:
    """A catalog entry's row, as the nearby index stores it (`catalog.nearby_index`)."""
    episode = entry["episode"]
    published = rfc3339(datetime.fromisoformat(episode["published"]))
    seconds = json_seconds(parse_duration(episode["duration"]).total_seconds())
    return (entry["slug"], episode["title"], published, seconds)


def _episode(slug: str, title: str, published: str, seconds: float) -> IndexedEpisode:
    duration = timedelta(seconds=seconds)
    return IndexedEpisode(slug, title, published, iso_duration(duration), total_seconds(duration))
