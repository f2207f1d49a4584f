"""What a change to a show's catalog makes stale on its site.

A publish re-renders only what depends on what changed: the changed episodes' pages, the
pages whose nearby lists now differ, the archive pages of the years touched, and the
show's feed, page and sitemap parts. That keeps its cost flat however large the show grows.
"""

from dataclasses import dataclass, field

from podpages.catalog.model import Catalog, CatalogEntry
from podpages.catalog.sitemap_parts import sitemap_parts


@dataclass
class Refresh:
    episodes: set[str] = field(default_factory=set)  # pages to render, or to delete where the episode is gone
    years: set[int] = field(default_factory=set)  # archive pages, likewise
    transcripts: dict[str, str | None] = field(default_factory=dict)  # full text to publish, or None to delete
    chapters: set[str] = field(default_factory=set)  # chapters files to write, or to delete where they are gone
    listings: bool = False  # the show's feed, page and sitemap
    # With listings: the most sitemap parts the site may hold for the show, so that those past
    # the catalog's own, left by a show that has shrunk, are deleted.
    sitemap_parts: int = 0

    def __ior__(self, other: "Refresh") -> "Refresh":
        self.episodes |= other.episodes
        self.years |= other.years
        self.transcripts |= other.transcripts
        self.chapters |= other.chapters
        self.listings |= other.listings
        self.sitemap_parts = max(self.sitemap_parts, other.sitemap_parts)
        return self

    def __bool__(self) -> bool:
        return bool(self.episodes or self.years or self.transcripts or self.chapters or self.listings)


def everything(catalog: Catalog, transcripts: dict[str, str]) -> Refresh:
    """The whole show, as a from-scratch render publishes it."""
    return Refresh(
        episodes={entry.slug for entry in catalog.episodes},
        years=set(catalog.years()),
        transcripts=dict(transcripts),
        chapters={entry.slug for entry in catalog.episodes if entry.episode.chapters},
        listings=not catalog.is_empty,
        sitemap_parts=sitemap_parts(catalog),
    )


def pages_again(catalog: Catalog, slugs: set[str]) -> Refresh:
    """The named episodes' pages, and the chapters files of those that have chapters: what a rebuild
    renders again after a deploy changed how they are rendered."""
    chapters = {slug for slug in slugs if (entry := catalog.entry(slug)) and entry.episode.chapters}
    return Refresh(episodes=set(slugs), chapters=chapters)


def all_listings(catalog: Catalog) -> Refresh:
    """The show's listings alone: its year archives, page, sitemap parts and feed."""
    return Refresh(years=set(catalog.years()), listings=True, sitemap_parts=max(1, sitemap_parts(catalog)))


def stale(old: Catalog, new: Catalog, nearby_count: int) -> Refresh:
    """What differs between the site of `old` and the site of `new`."""
    parts = max(sitemap_parts(old), sitemap_parts(new))
    changed = {slug for slug in _slugs(old) | _slugs(new) if _differs(old.entry(slug), new.entry(slug))}
    chapters = {slug for slug in changed if _chapters_differ(old.entry(slug), new.entry(slug))}
    if old.show_document != new.show_document:
        return Refresh(
            episodes={entry.slug for entry in (*old.episodes, *new.episodes)},
            years={*old.years(), *new.years()},
            chapters=chapters,
            listings=True,
            sitemap_parts=parts,
        )
    pages = set(changed)
    for slug in changed:
        for catalog in (old, new):
            pages |= {
                candidate
                for candidate in _within(catalog, slug, nearby_count)
                if _page_differs(old, new, candidate, nearby_count)
            }
    years = {entry.published.year for slug in changed for catalog in (old, new) if (entry := catalog.entry(slug))}
    return Refresh(episodes=pages, years=years, chapters=chapters, listings=bool(changed), sitemap_parts=parts)


def _slugs(catalog: Catalog) -> set[str]:
    return {entry.slug for entry in catalog.episodes}


def _differs(old: CatalogEntry | None, new: CatalogEntry | None) -> bool:
    # A fold keeps the entries it does not touch, so identity settles almost every slug cheaply.
    if old is new:
        return False
    return old is None or new is None or old.content() != new.content()


def _chapters_differ(old: CatalogEntry | None, new: CatalogEntry | None) -> bool:
    """Whether the episode's chapters file must be written or deleted. A removed episode's goes with
    its page, so only an episode still published counts."""
    return new is not None and (old.episode.chapters if old else None) != new.episode.chapters


def _within(catalog: Catalog, slug: str, distance: int) -> list[str]:
    """Slugs whose nearby lists can hold `slug`: none lies further than `distance` from it."""
    position = catalog.position(slug)
    if position is None:
        return []
    return [entry.slug for entry in catalog.episodes[max(0, position - distance) : position + distance + 1]]


def _page_differs(old: Catalog, new: Catalog, slug: str, nearby_count: int) -> bool:
    """Whether an episode page's inputs, besides the show, differ: its entry and its nearby list."""
    if _differs(old.entry(slug), new.entry(slug)):
        return True
    before, after = old.nearby(slug, nearby_count), new.nearby(slug, nearby_count)
    return len(before) != len(after) or any(_differs(a, b) for a, b in zip(before, after, strict=True))
