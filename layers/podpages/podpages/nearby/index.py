"""A show's catalog reduced to what the nearby API serves.

It is read from the show's nearby index (`catalog.nearby_index`), or from the whole catalog where a
site published before the index existed has none yet, with the standard library (`catalog.stored`),
not through the contract models, so the API's cold start stays light. The episodes keep the catalog's
publish order, and a slug is found by binary search over the slugs sorted once, when the index is read.
"""

from bisect import bisect_left
from dataclasses import dataclass
from datetime import datetime, timedelta

from podpages.catalog.nearby import nearby
from podpages.catalog.stored import StoredEntry, load_catalog, load_nearby_index
from podpages.durations import iso_duration, parse_duration, total_seconds
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
    show: str
    show_title: str
    episodes: tuple[IndexedEpisode, ...]  # publish order, oldest first
    slugs: tuple[str, ...]  # sorted
    positions: tuple[int, ...]  # where each of `slugs` sits in `episodes`

    @classmethod
    def from_json(cls, body: bytes) -> "CatalogIndex":
        """From the whole catalog's JSON."""
        catalog = load_catalog(body)
        document = catalog["document"]
        # A show without its document is titled by its slug, as its pages are.
        title = document["title"] if document else catalog["show"]
        return cls._of(catalog["show"], title, tuple(_indexed(entry) for entry in catalog["episodes"]))

    @classmethod
    def from_nearby_json(cls, body: bytes) -> "CatalogIndex":
        """From the show's nearby index."""
        index = load_nearby_index(body)
        episodes = tuple(_from_nearby(*episode) for episode in index["episodes"])
        return cls._of(index["show"], index["title"], episodes)

    @classmethod
    def _of(cls, show: str, title: str, episodes: tuple[IndexedEpisode, ...]) -> "CatalogIndex":
        by_slug = sorted(range(len(episodes)), key=lambda position: episodes[position].slug)
        return cls(
            show=show,
            show_title=title,
            episodes=episodes,
            slugs=tuple(episodes[position].slug for position in by_slug),
            positions=tuple(by_slug),
        )

    def position(self, slug: str) -> int:
        found = bisect_left(self.slugs, slug)
        if found == len(self.slugs) or self.slugs[found] != slug:
            raise UnknownEpisode(self.show, slug)
        return self.positions[found]

    def episode(self, slug: str) -> IndexedEpisode:
        return self.episodes[self.position(slug)]

    def nearby(self, slug: str, count: int) -> list[IndexedEpisode]:
        """The episode's nearby episodes, by the same rule the episode pages use."""
        return nearby(self.episodes, self.position(slug), count)


def _indexed(entry: StoredEntry) -> IndexedEpisode:
    episode = entry["episode"]
    return IndexedEpisode(
        slug=entry["slug"],
        title=episode["title"],
        published=rfc3339(datetime.fromisoformat(episode["published"])),
        duration=episode["duration"],
        duration_seconds=total_seconds(parse_duration(episode["duration"])),
    )


def _from_nearby(slug: str, title: str, published: str, seconds: float) -> IndexedEpisode:
    duration = timedelta(seconds=seconds)
    return IndexedEpisode(slug, title, published, iso_duration(duration), total_seconds(duration))
