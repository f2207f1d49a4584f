"""How many sitemap files a show's URLs fill: the sitemaps.org protocol caps one file's URLs."""

from podpages.catalog.model import Catalog

MAX_SITEMAP_URLS = 50_000  # the most URLs the sitemaps.org protocol allows in one file


def sitemap_parts(catalog: Catalog) -> int:
    """How many sitemap files the show needs: none once it is unpublished, else at least one."""
    if catalog.is_empty:
        return 0
    urls = 1 + len(catalog.years()) + len(catalog.episodes)  # the show page, its archives, its episodes
    return -(-urls // MAX_SITEMAP_URLS)
