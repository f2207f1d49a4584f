"""How a show's sitemap is cut into files: the sitemaps.org protocol caps one file's URLs.

The show page, its year archives and the episodes newer than its frozen pages (`feed_archives`) come
first, in runs of at most MAX_SITEMAP_URLS. Then each frozen page has a part of its own, after them,
so that a publish rewrites the first parts and a frozen page's part only when that page changes.
"""

from collections.abc import Sequence

from podpages.catalog.feed_archives import archive_size, frozen_pages
from podpages.catalog.model import Catalog, CatalogEntry

MAX_SITEMAP_URLS = 50_000  # the most URLs the sitemaps.org protocol allows in one file


def head(catalog: Catalog, feed_max_items: int) -> Sequence[CatalogEntry]:
    """The episodes newer than the show's frozen pages, oldest first."""
    start = frozen_pages(catalog.count, feed_max_items) * archive_size(feed_max_items) - catalog.offset
    return catalog.episodes[start:]


def head_parts(catalog: Catalog, feed_max_items: int) -> int:
    """How many parts the show page, its year archives and its head take: none once it is unpublished."""
    if catalog.is_empty:
        return 0
    # The show page, its archives, its episodes, and the transcript pages of those with a companion.
    episodes = head(catalog, feed_max_items)
    transcript_pages = sum(catalog.companion(entry.slug) is not None for entry in episodes)
    urls = 1 + len(catalog.years()) + len(episodes) + transcript_pages
    return -(-urls // MAX_SITEMAP_URLS)


def sitemap_parts(catalog: Catalog, feed_max_items: int) -> int:
    """How many sitemap files the show needs: none once it is unpublished, else at least one."""
    return head_parts(catalog, feed_max_items) + frozen_pages(catalog.count, feed_max_items)
