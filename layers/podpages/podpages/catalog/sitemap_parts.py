"""How a show's sitemap is cut into files: the sitemaps.org protocol caps one file's URLs.

The show page, its year archives and the episodes newer than its indexed pages come first, in runs
of at most MAX_SITEMAP_URLS. Then each frozen page (`feed_archives`) has a part of its own, after
them, so that a publish rewrites the first parts and a frozen page's part only when that page
changes.

A page's part is written by the publish that freezes it, which holds its episodes, and the site's
sitemap index lists it from the next publish on: the page is *indexed*. Until then the head's parts
list its episodes still. So no publish both freezes a page and rewrites the site's sitemap index,
which every show shares and a publish must read before it writes. That publish is put off once more
when it would fill an archive page, which rewrites two archive documents already.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from podpages.catalog.feed_archives import archive_bounds, frozen_count, frozen_pages
from podpages.catalog.model import Catalog, CatalogEntry, NotLoaded
from podpages.catalog.page_bounds import PageBounds

MAX_SITEMAP_URLS = 50_000  # the most URLs the sitemaps.org protocol allows in one file


def indexed_pages(catalog: Catalog, feed_max_items: int) -> int:
    """How many of the show's frozen pages the site's sitemap index lists (`indexed_count`)."""
    return indexed_count(archive_bounds(catalog, feed_max_items), catalog.count, feed_max_items)


def indexed_count(bounds: PageBounds, count: int, feed_max_items: int) -> int:
    """How many frozen pages of `bounds`, in a show of `count` episodes, the site's sitemap index
    lists: those the publishes before the one that made the count froze, or before the one before it
    when this one fills an archive page."""
    return frozen_count(bounds, count - 1 - bounds.ends_at(count), feed_max_items)


def head_episodes(catalog: Catalog, feed_max_items: int) -> Sequence[CatalogEntry]:
    """The episodes the head's parts list, oldest first: those newer than the indexed pages."""
    bounds = archive_bounds(catalog, feed_max_items)
    start = bounds.start(indexed_count(bounds, catalog.count, feed_max_items) + 1)
    return catalog.episodes[catalog.held(start) :]


# What a sitemap lists of an episode: its slug, when it was published, and whether it has a transcript page.
type SitemapRow = tuple[str, datetime, bool]


@dataclass(frozen=True)
class HeadSitemap:
    """What the head's parts list: the show page, its year archives and the head's episodes, each
    with the moment it last changed, and whether each episode has a companion's transcript page."""

    show_page: datetime | None
    years: tuple[tuple[int, datetime], ...]  # newest first
    episodes: tuple[SitemapRow, ...]  # newest first


def sitemap_rows(catalog: Catalog, entries: Sequence[CatalogEntry]) -> tuple[SitemapRow, ...]:
    """What a sitemap lists of each of `entries`, newest first."""
    return tuple(
        (entry.slug, entry.published, catalog.companion(entry.slug) is not None) for entry in reversed(entries)
    )


def head_sitemap(catalog: Catalog, feed_max_items: int) -> HeadSitemap:
    newest = catalog.newest(1)
    return HeadSitemap(
        show_page=newest[0].published if newest else None,
        years=tuple((year, catalog.latest_in_year(year)) for year in catalog.years()),
        episodes=sitemap_rows(catalog, head_episodes(catalog, feed_max_items)),
    )


def head_parts(catalog: Catalog, feed_max_items: int) -> int:
    """How many parts the show page, its year archives and its head take: none once it is unpublished."""
    if catalog.is_empty:
        return 0
    try:
        episodes = head_episodes(catalog, feed_max_items)
    except NotLoaded:
        # A window of the catalog (`catalog.window`) without a page frozen since the site's sitemap
        # index last changed: the show as its last publish left it. Its feed is windowed only up to
        # WINDOWED_FEED_MAX items, so its head and that page take far fewer URLs than one part holds.
        return 1
    # The show page, its archives, its episodes, and the transcript pages of those with a companion.
    transcript_pages = sum(catalog.companion(entry.slug) is not None for entry in episodes)
    urls = 1 + len(catalog.years()) + len(episodes) + transcript_pages
    return -(-urls // MAX_SITEMAP_URLS)


def sitemap_parts(catalog: Catalog, feed_max_items: int) -> int:
    """How many sitemap parts the site's sitemap index lists for the show: none once it is
    unpublished, else at least one."""
    return head_parts(catalog, feed_max_items) + indexed_pages(catalog, feed_max_items)


def sitemap_files(catalog: Catalog, feed_max_items: int) -> int:
    """How many sitemap parts the show has on the site: those the index lists, and the part of each
    page frozen since, which it lists from the next publish."""
    return head_parts(catalog, feed_max_items) + frozen_pages(catalog, feed_max_items)
