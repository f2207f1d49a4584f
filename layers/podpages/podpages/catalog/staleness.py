"""What a change to a show's catalog makes stale on its site.

A publish re-renders only what depends on what changed: the changed episodes' pages, the
pages whose nearby lists now differ, the archive pages of the years touched, and the
show's feed, page and sitemap parts. That keeps its cost flat however large the show grows.
"""

from bisect import bisect_left
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from podpages.catalog.feed_archives import (
    SHOW_PAGE_EPISODES,
    archive_bounds,
    archive_entries,
    archive_pages,
    frozen_pages,
)
from podpages.catalog.model import Catalog, CatalogEntry, NotLoaded
from podpages.catalog.sitemap_parts import head_parts, head_sitemap, sitemap_files, sitemap_rows
from podpages.contract.source_keys import Kind, SourceKey


@dataclass(frozen=True)
class TranscriptUpdate:
    """What an episode's transcript files become. They are published from one upload: its companion
    transcript, in every format and as a page, or else its JSON's `transcript` text, as text alone."""

    source: str | None  # that upload's key; None when the episode has no transcript, or is gone
    had_companion: bool = False  # a companion's formats and page may be on the site: they go unless rewritten
    # A companion's files in each format too, not its page alone: an edit of the episode's JSON
    # changes the page (it shows the episode's title), not the files.
    files: bool = True

    def after(self, earlier: "TranscriptUpdate") -> "TranscriptUpdate":
        """This update, made after `earlier` (a fold again after a lost race): whatever either writes."""
        return replace(self, files=self.files or earlier.files)


@dataclass
class Refresh:
    episodes: set[str] = field(default_factory=set)  # pages to render, or to delete where the episode is gone
    years: set[int] = field(default_factory=set)  # archive pages, likewise
    transcripts: dict[str, TranscriptUpdate] = field(default_factory=dict)  # transcript files to write or delete
    chapters: set[str] = field(default_factory=set)  # chapters files to write, or to delete where they are gone
    listings: bool = False  # the show's feed, page and sitemap
    # With listings: whether the show's page, its head's sitemap parts and its feed differ. An edit
    # of an episode that none of them lists, which leaves its publish time as it was, changes none.
    show_page: bool = False
    head_sitemap: bool = False
    feed: bool = False
    # With listings: the most sitemap parts the site may hold for the show, so that those past
    # the catalog's own, left by a show that has shrunk, are deleted.
    sitemap_parts: int = 0
    archives: set[int] = field(default_factory=set)  # the feed's archive pages to write
    archive_pages: int = 0  # with listings: the most archive pages the site may hold, likewise
    frozen: set[int] = field(default_factory=set)  # with listings: the frozen pages whose sitemap part to write

    def __ior__(self, other: "Refresh") -> "Refresh":
        self.episodes |= other.episodes
        self.years |= other.years
        for slug, update in other.transcripts.items():
            earlier = self.transcripts.get(slug)
            self.transcripts[slug] = update if earlier is None else update.after(earlier)
        self.chapters |= other.chapters
        self.listings |= other.listings
        self.show_page |= other.show_page
        self.head_sitemap |= other.head_sitemap
        self.feed |= other.feed
        self.sitemap_parts = max(self.sitemap_parts, other.sitemap_parts)
        self.archives |= other.archives
        self.archive_pages = max(self.archive_pages, other.archive_pages)
        self.frozen |= other.frozen
        return self

    def __bool__(self) -> bool:
        return bool(self.episodes or self.years or self.transcripts or self.chapters or self.listings)


def transcript_update(catalog: Catalog, slug: str, had_companion: bool, files: bool = True) -> TranscriptUpdate:
    """The transcript files the episode has in `catalog`: a companion's page alone, without `files`."""
    entry = catalog.entry(slug)
    return TranscriptUpdate(transcript_source(catalog, entry) if entry else None, had_companion, files)


def transcript_source(catalog: Catalog, entry: CatalogEntry) -> str | None:
    """The key of the upload the episode's transcript files are published from: its companion's
    wins over its JSON's text. None when it has no transcript."""
    if companion := catalog.companion(entry.slug):
        return companion.key(catalog.show)
    return SourceKey(Kind.EPISODE, catalog.show, entry.slug).key if entry.transcript else None


def everything(catalog: Catalog, feed_max_items: int) -> Refresh:
    """The whole show, as a from-scratch render publishes it."""
    return replace(
        in_full(catalog, catalog.episodes),
        years=set(catalog.years()),
        listings=not catalog.is_empty,
        show_page=not catalog.is_empty,
        head_sitemap=not catalog.is_empty,
        feed=not catalog.is_empty,
        sitemap_parts=sitemap_files(catalog, feed_max_items),
        archives=set(range(1, archive_pages(catalog, feed_max_items) + 1)),
        archive_pages=archive_pages(catalog, feed_max_items),
        frozen=_all_frozen(catalog, feed_max_items),
    )


def in_full(catalog: Catalog, entries: Sequence[CatalogEntry]) -> Refresh:
    """The episodes' pages, with their transcript and chapters files, as a from-scratch render
    publishes them."""
    sources = {entry.slug: transcript_source(catalog, entry) for entry in entries}
    return Refresh(
        episodes=set(sources),
        transcripts={slug: TranscriptUpdate(source) for slug, source in sources.items() if source},
        chapters={entry.slug for entry in entries if entry.chapters_json},
    )


def pages_again(catalog: Catalog, slugs: set[str]) -> Refresh:
    """The named episodes' pages, with their chapters files and companion transcripts: what a rebuild
    renders again after a deploy changed how they are rendered."""
    chapters = {slug for slug in slugs if (entry := catalog.entry(slug)) and entry.chapters_json}
    # A companion's page is rendered again; an episode since removed loses every transcript file.
    stale = {slug for slug in slugs if catalog.companion(slug) or not catalog.entry(slug)}
    transcripts = {slug: transcript_update(catalog, slug, True) for slug in stale}
    return Refresh(episodes=set(slugs), chapters=chapters, transcripts=transcripts)


def reach_of(
    catalog: Catalog, episodes: Collection[tuple[str, datetime | None]], every: bool, nearby_count: int
) -> set[str]:
    """The episodes whose files a publish may have written ahead of `catalog`, the whole catalog it
    read, folding in changes to `episodes`, each with the publish time a put gave it: each of them,
    and those whose nearby lists may hold it, where it was and where its time puts it (`stale`
    refreshes no more). Every episode besides, with `every`.

    The other changes move no page out of this reach: an episode removed between a page and the
    place of an episode put lies nearer that page than the put does, and its own place reaches it."""
    distance = nearby_count
    orders = [entry.order for entry in catalog.episodes]
    reach = {slug for slug, _time in episodes} | ({entry.slug for entry in catalog.episodes} if every else set())
    for slug, time in episodes:
        places = [] if (held := catalog.position(slug)) is None else [held]
        places += [] if time is None else [bisect_left(orders, (time, slug))]
        for place in places:
            reach |= {entry.slug for entry in catalog.episodes[max(0, place - distance) : place + distance + 1]}
    return reach


def set_right(catalog: Catalog, slugs: set[str]) -> Refresh:
    """The named episodes' pages, transcript files and chapters files, each written as the catalog
    has it or deleted: what a publish may have written ahead of a commit it never made."""
    return Refresh(
        episodes=set(slugs),
        transcripts={slug: transcript_update(catalog, slug, had_companion=True) for slug in slugs},
        chapters={slug for slug in slugs if catalog.entry(slug)},  # an episode gone loses them with its page
    )


def all_listings(catalog: Catalog, feed_max_items: int) -> Refresh:
    """The show's listings alone: its year archives, page, sitemap parts, feed and the feed's archives."""
    pages = archive_pages(catalog, feed_max_items)
    return Refresh(
        years=set(catalog.years()),
        listings=True,
        show_page=True,
        head_sitemap=True,
        feed=True,
        sitemap_parts=max(1, sitemap_files(catalog, feed_max_items)),
        archives=set(range(1, pages + 1)),
        archive_pages=pages,
        frozen=_all_frozen(catalog, feed_max_items),
    )


def listings_of(catalog: Catalog, slugs: set[str], feed_max_items: int) -> Refresh:
    """The listings that show the named episodes, as a publish that changed them writes them: their
    years' archive pages, the archive documents and sitemap parts of the archive pages that hold
    them, and the show's page and sitemap; the feed aside."""
    bounds = archive_bounds(catalog, feed_max_items)
    holding = {
        page
        for page in range(len(catalog.earlier) + 1, len(bounds) + 1)
        if not catalog.unheld(page) and any(entry.slug in slugs for entry in archive_entries(catalog, bounds, page))
    }
    return Refresh(
        years={entry.published.year for slug in slugs if (entry := catalog.entry(slug))},
        listings=True,
        show_page=True,
        head_sitemap=True,
        archives=holding,
        archive_pages=len(bounds),
        frozen={page for page in holding if page <= frozen_pages(catalog, feed_max_items)},
    )


def stale(old: Catalog, new: Catalog, nearby_count: int, feed_max_items: int = 0) -> Refresh:
    """What differs between the site of `old` and the site of `new`."""
    parts = max(sitemap_files(old, feed_max_items), sitemap_files(new, feed_max_items))
    pages = max(archive_pages(old, feed_max_items), archive_pages(new, feed_max_items))
    changed = {
        slug
        for slug in _slugs(old) | _slugs(new)
        if _differs(old.entry(slug), new.entry(slug)) or _companion_differs(old, new, slug)
    }
    chapters = {slug for slug in changed if _chapters_differ(old.entry(slug), new.entry(slug))}
    if old.show_document != new.show_document:
        return Refresh(
            episodes={entry.slug for entry in (*old.episodes, *new.episodes)},
            years={*old.years(), *new.years()},
            chapters=chapters,
            listings=True,
            show_page=True,
            head_sitemap=True,
            feed=True,
            sitemap_parts=parts,
            archives=set(range(1, archive_pages(new, feed_max_items) + 1)),
            archive_pages=pages,
            frozen=_all_frozen(new, feed_max_items),
        )
    stale_pages = set(changed)
    for slug in changed:
        for catalog in (old, new):
            stale_pages |= {
                candidate
                for candidate in _within(catalog, slug, nearby_count)
                if _page_differs(old, new, candidate, nearby_count)
            }
    years = {entry.published.year for slug in changed for catalog in (old, new) if (entry := catalog.entry(slug))}
    archives = _archives_stale(old, new, feed_max_items) if changed else set()
    return Refresh(
        episodes=stale_pages,
        years=years,
        chapters=chapters,
        listings=bool(changed),
        show_page=bool(changed) and _show_page_differs(old, new),
        head_sitemap=bool(changed) and _head_sitemap_differs(old, new, feed_max_items),
        feed=bool(changed) and _feed_differs(old, new, feed_max_items),
        sitemap_parts=parts,
        archives=archives,
        archive_pages=pages,
        frozen=_frozen_stale(old, new, archives, feed_max_items) if changed else set(),
    )


def _slugs(catalog: Catalog) -> set[str]:
    return {entry.slug for entry in catalog.episodes}


def _differs(old: CatalogEntry | None, new: CatalogEntry | None) -> bool:
    # A fold keeps the entries it does not touch, so identity settles almost every slug cheaply.
    if old is new:
        return False
    return old is None or new is None or old.content() != new.content()


def _archives_stale(old: Catalog, new: Catalog, feed_max_items: int) -> set[int]:
    """The archive pages of `new` that differ from those of `old`: new pages, pages whose episodes
    differ (an edit, or an insert or removal before them, which shifts them), and the page that gains
    or loses its `next-archive` link. A new newest episode changes at most one, when it fills a page.
    The frozen pages the catalogs do not hold are the same in both: no change reaches them."""
    old_bounds, new_bounds = archive_bounds(old, feed_max_items), archive_bounds(new, feed_max_items)
    before, after = len(old_bounds), len(new_bounds)
    return {
        page
        for page in range(len(new.earlier) + 1, after + 1)
        if not new.unheld(page)
        and (
            page > before
            or (page < before) != (page < after)
            or _entries_differ(old, new, archive_entries(old, old_bounds, page), archive_entries(new, new_bounds, page))
        )
    }


def _entries_differ(old: Catalog, new: Catalog, before: Sequence[CatalogEntry], after: Sequence[CatalogEntry]) -> bool:
    """Whether a feed document's items differ: another count of them, or any item."""
    return len(before) != len(after) or any(_item_differs(old, new, a, b) for a, b in zip(before, after, strict=True))


def _show_page_differs(old: Catalog, new: Catalog) -> bool:
    """Whether the show's page differs, its document aside: the episodes it lists, newest first, or
    its years and their counts."""
    if old.is_empty or new.is_empty:
        return True
    before, after = old.newest(SHOW_PAGE_EPISODES), new.newest(SHOW_PAGE_EPISODES)
    if len(before) != len(after) or any(_differs(a, b) for a, b in zip(before, after, strict=True)):
        return True
    return [(year, old.year_count(year)) for year in old.years()] != [
        (year, new.year_count(year)) for year in new.years()
    ]


def _feed_differs(old: Catalog, new: Catalog, feed_max_items: int) -> bool:
    """Whether the show's feed differs, its document aside: its link to the newest archive page, its
    items, or the trailers its channel names."""
    if archive_pages(old, feed_max_items) != archive_pages(new, feed_max_items):
        return True
    if _entries_differ(old, new, old.newest(feed_max_items), new.newest(feed_max_items)):
        return True
    trailers = old.trailers(), new.trailers()
    return len(trailers[0]) != len(trailers[1]) or any(_differs(a, b) for a, b in zip(*trailers, strict=True))


def _head_sitemap_differs(old: Catalog, new: Catalog, feed_max_items: int) -> bool:
    """Whether the head's sitemap parts differ: what they list, or when it last changed. NotLoaded
    when the catalog read lacks a page they now list, so that the publish reads more."""
    after = head_sitemap(new, feed_max_items)
    try:
        return head_sitemap(old, feed_max_items) != after
    except NotLoaded:  # the page that froze before this publish, whose episodes leave the head's parts
        return True


def _all_frozen(catalog: Catalog, feed_max_items: int) -> set[int]:
    return set(range(1, frozen_pages(catalog, feed_max_items) + 1))


def _frozen_stale(old: Catalog, new: Catalog, archives: set[int], feed_max_items: int) -> set[int]:
    """The frozen pages of `new` whose sitemap part differs from the site of `old`: those newly frozen,
    and those whose archive page lists other episodes, at other times, or with other transcript pages.
    When the head's own parts grow or shrink in number, every frozen page's part moves to another file."""
    if head_parts(old, feed_max_items) != head_parts(new, feed_max_items):
        return _all_frozen(new, feed_max_items)
    before, after = frozen_pages(old, feed_max_items), frozen_pages(new, feed_max_items)
    old_bounds, new_bounds = archive_bounds(old, feed_max_items), archive_bounds(new, feed_max_items)
    differ = {
        page
        for page in archives
        if page <= before
        and page <= after
        and sitemap_rows(old, archive_entries(old, old_bounds, page))
        != sitemap_rows(new, archive_entries(new, new_bounds, page))
    }
    return differ | set(range(before + 1, after + 1))


def _item_differs(old: Catalog, new: Catalog, before: CatalogEntry, after: CatalogEntry) -> bool:
    """Whether an episode's feed item differs: its entry, or whether it links a companion transcript."""
    has_companion = (old.companion(before.slug) is not None, new.companion(after.slug) is not None)
    return _differs(before, after) or has_companion[0] != has_companion[1]


def transcript_page_stale(old: Catalog, new: Catalog, slug: str) -> bool:
    """Whether a published companion's page must be rendered again for what else it shows: the show
    (its title, its links) and the episode (its title, its audio)."""
    entry, before = new.entry(slug), old.entry(slug)
    if entry is None or new.companion(slug) is None:
        return False
    return old.show_document != new.show_document or before is None or before.content() != entry.content()


def _companion_differs(old: Catalog, new: Catalog, slug: str) -> bool:
    """Whether the companion that a published episode's page takes its excerpt from has changed."""
    before, after = old.companion(slug), new.companion(slug)
    return (before.content() if before else None) != (after.content() if after else None)


def _chapters_differ(old: CatalogEntry | None, new: CatalogEntry | None) -> bool:
    """Whether the episode's chapters file must be written or deleted. A removed episode's goes with
    its page, so only an episode still published counts."""
    return new is not None and (old.chapters_json if old else None) != new.chapters_json


def _within(catalog: Catalog, slug: str, distance: int) -> list[str]:
    """Slugs whose nearby lists can hold `slug`: none lies further than `distance` from it."""
    position = catalog.position(slug)
    if position is None:
        return []
    return [entry.slug for entry in catalog.around(position, distance)]


def _page_differs(old: Catalog, new: Catalog, slug: str, nearby_count: int) -> bool:
    """Whether an episode page's inputs, besides the show, differ: its entry and its nearby list."""
    if _differs(old.entry(slug), new.entry(slug)):
        return True
    before, after = old.nearby(slug, nearby_count), new.nearby(slug, nearby_count)
    return len(before) != len(after) or any(_differs(a, b) for a, b in zip(before, after, strict=True))
