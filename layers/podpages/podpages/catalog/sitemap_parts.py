"""How many sitemap files a show's URLs fill: the sitemaps.org protocol caps one file's URLs."""

from podpages.catalog.model import Catalog

MAX_SITEMAP_URLS = 50_000  # the most URLs the sitemaps.org protocol allows in one file


def sitemap_parts(catalog: Catalog) -> int:
    """How many sitemap files the show needs: none once it is unpublished, else at least one."""
    if catalog.is_empty:
        return 0
    # The show page, its archives, its episodes, and the transcript pages of those with a companion.
    transcript_pages = sum(catalog.companion(entry.slug) is not None for entry in catalog.episodes)
    urls = 1 + len(catalog.years()) + len(catalog.episodes) + transcript_pages
    return -(-urls // MAX_SITEMAP_URLS)
