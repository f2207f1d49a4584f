"""How a show's episodes fall into RFC 5005 archive documents, beside the subscription feed.

`feed.xml` holds the newest `FEED_MAX_ITEMS` episodes. The archives hold every episode in pages of
about 100, oldest first, and only full pages. Where a page ends is decided by its episodes' slugs
(`cut`), not by their positions: a page, once full, changes only when one of its own episodes does,
and an episode inserted or removed before it leaves it as it was, so apps and caches may keep it for
long. (A feed of 100 items or fewer pages in its own size, by position.) The newest episodes, which
fill no page yet, are all in `feed.xml`, since a page is never larger than the feed. A show with
fewer episodes than a page has no archives, and its feed links to none. Where each page begins and
ends is `archive_bounds`, the one place that cuts the episodes into pages; all else asks the bounds
it gives (`page_bounds`).

An archive page none of whose episodes is in the feed, or on the show page, any more is *frozen*: a
new newest episode never touches it. Pages freeze at the publish after one that fills an archive
page, so that no publish does both. A show's sitemap and its nearby index are cut along the same
pages, so that a publish rewrites the part of them that the newest episodes fill, and a frozen
page's part only when that page changes.
"""

from collections.abc import Sequence

from podpages.catalog.model import Catalog, CatalogEntry, NotLoaded
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.stored import slug_hash

ARCHIVE_ITEMS = 100  # episodes to a page, unless the feed is smaller still
SHOW_PAGE_EPISODES = 20  # the newest episodes the show's page lists


def archive_size(feed_max_items: int) -> int:
    """Episodes to an archive page: at most the feed's own size, so the feed holds every episode that
    fills no page yet. A feed of every episode (0) pages in ARCHIVE_ITEMS."""
    return min(ARCHIVE_ITEMS, feed_max_items) if feed_max_items else ARCHIVE_ITEMS


def archive_bounds(catalog: Catalog, feed_max_items: int) -> PageBounds:
    """Where each full archive page of the show begins and ends. The frozen pages the catalog does
    not hold are counted by their summaries; the episodes it holds are cut into pages (`cut`). Worked
    out once for each catalog and feed size: a full render asks it for each of a thousand pages."""
    known = catalog.archive_bounds
    if (bounds := known.get(feed_max_items)) is None:
        slugs = [entry.slug for entry in catalog.episodes]
        before_gap = catalog.gap_at if catalog.gap else len(slugs)
        counts = [page.count for page in catalog.earlier]
        counts += cut(slugs[:before_gap], feed_max_items)
        if catalog.gap and (sum(counts) != catalog.offset + before_gap or len(counts) + 1 != catalog.gap_page):
            # A change before the gap moved a cut, so that the page before it ends within it, or
            # merged two pages or split one, so that the gap's pages would take other numbers.
            raise NotLoaded(f"a change to {catalog.show!r} moves where its frozen pages not read begin")
        counts += [page.count for page in catalog.gap]
        counts += cut(slugs[before_gap:], feed_max_items)
        known[feed_max_items] = bounds = PageBounds.of_counts(counts)
    return bounds


def cut(slugs: Sequence[str], feed_max_items: int) -> list[int]:
    """The counts of the full pages that the episodes of `slugs`, in publish order, fill, the first
    of them the first of a page: the rule that cuts a show into archive pages.

    Once a page holds a quarter of `archive_size` episodes, it ends with an episode whose slug's hash
    is one in `archive_size` (`_ends_page`); past one and a half times that, one in a tenth of it;
    and at twice that, or at the feed's size, at the latest. So pages hold `archive_size` episodes
    or so, and are cut by their content, not by their positions: removing or adding an episode
    changes its own page, seldom one or two after it, and the pages after those keep theirs (the
    tests of `page_bounds` measure how seldom). A feed with no room
    for a page larger than `archive_size` has pages of that size."""
    size = archive_size(feed_max_items)
    if by_position(feed_max_items):
        return [size] * (len(slugs) // size)
    most = min(2 * size, feed_max_items or 2 * size)
    counts, held = [], 0
    for slug in slugs:
        held += 1
        if held == most or _ends_page(slug, size, held):
            counts.append(held)
            held = 0
    return counts


def by_position(feed_max_items: int) -> bool:
    """Whether the feed's archive pages are cut by position, each of `archive_size`: a feed of 100
    items or fewer has no room for a larger page. An episode inserted or removed then shifts every
    page after it."""
    return 0 < feed_max_items <= ARCHIVE_ITEMS


def _ends_page(slug: str, size: int, held: int) -> bool:
    """Whether the episode of `slug`, the `held`th of its page, ends it: by its slug's hash, the one
    the index keeps of each frozen page's episodes (`stored.slug_hash`)."""
    if held < size // 4:
        return False
    one_in = size if held < size * 3 // 2 else size // 10
    return int(slug_hash(slug), 16) % one_in == 0


def archive_pages(catalog: Catalog, feed_max_items: int) -> int:
    """How many full archive pages the show's episodes fill."""
    return len(archive_bounds(catalog, feed_max_items))


def archive_entries(catalog: Catalog, bounds: PageBounds, page: int) -> tuple[CatalogEntry, ...]:
    """The episodes of archive page `page` (from 1) of the show's `bounds`, oldest first."""
    start = catalog.held(bounds.start(page))
    return catalog.episodes[start : start + bounds.stop(page) - bounds.start(page)]


def head(catalog: Catalog, feed_max_items: int) -> Sequence[CatalogEntry]:
    """The episodes newer than the show's frozen pages, oldest first."""
    bounds = archive_bounds(catalog, feed_max_items)
    return catalog.episodes[catalog.held(bounds.start(frozen_count(bounds, catalog.count, feed_max_items) + 1)) :]


def frozen_pages(catalog: Catalog, feed_max_items: int) -> int:
    """How many of the show's first archive pages are frozen (`frozen_count`)."""
    return frozen_count(archive_bounds(catalog, feed_max_items), catalog.count, feed_max_items)


def frozen_count(bounds: PageBounds, count: int, feed_max_items: int) -> int:
    """How many of the first archive pages of `bounds`, in a show of `count` episodes, hold none of
    the feed's newest `feed_max_items`, nor of the show page's. A page that would freeze at the
    publish that fills an archive page (whose newest episode ends a page), which rewrites two archive
    documents already, freezes at the next one instead. A feed of every episode (0) leaves none frozen."""
    if not feed_max_items:
        return 0
    reach = max(feed_max_items, SHOW_PAGE_EPISODES)
    return bounds.page_of(count - reach - bounds.ends_at(count)) - 1
