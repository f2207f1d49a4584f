"""Sitemaps for crawlers: each show's, in parts of at most MAX_SITEMAP_URLS, an index of every
part, and robots.txt pointing at the index.

`lastmod` comes from the episodes' `published` times, never from the clock.
"""

from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from xml.etree import ElementTree

from podpages import site_objects, site_paths
from podpages.catalog import Catalog
from podpages.settings import Settings
from podpages.site_objects import SiteObject
from podpages.templating import render

SITEMAPS_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
MAX_SITEMAP_URLS = 50_000  # the most URLs the sitemaps.org protocol allows in one file


def sitemap_parts(catalog: Catalog) -> int:
    """How many sitemap files the show needs: none once it is unpublished, else at least one."""
    if catalog.is_empty:
        return 0
    urls = 1 + len(catalog.years()) + len(catalog.episodes)  # the show page, its archives, its episodes
    return -(-urls // MAX_SITEMAP_URLS)


def show_sitemaps(catalog: Catalog, settings: Settings) -> list[SiteObject]:
    """Every part of the show's sitemap, first to last."""
    return [show_sitemap(catalog, settings, part) for part in range(1, sitemap_parts(catalog) + 1)]


def show_sitemap(catalog: Catalog, settings: Settings, part: int = 1) -> SiteObject:
    """One part: the show's URLs, in their stable order, cut into runs of MAX_SITEMAP_URLS."""
    start = (part - 1) * MAX_SITEMAP_URLS
    text = render("sitemap.xml", site_url=settings.site_url, urls=_urls(catalog)[start : start + MAX_SITEMAP_URLS])
    return site_objects.sitemap(site_paths.show_sitemap(catalog.show, part), text)


def _urls(catalog: Catalog) -> list[tuple[str, datetime | None]]:
    """The show page, its year archives and its episodes, each with the moment it last changed."""
    show = catalog.show
    episodes = catalog.newest(0)
    return [
        (site_paths.show_home(show), episodes[0].published if episodes else None),
        *((site_paths.archive(show, year), catalog.in_year(year)[0].published) for year in catalog.years()),
        *((site_paths.episode(show, entry.slug), entry.published) for entry in episodes),
    ]


def sitemap_index(sitemaps: Iterable[str], settings: Settings) -> SiteObject:
    """The index of the sitemaps at these site paths, in the order given."""
    text = render("sitemap-index.xml", site_url=settings.site_url, sitemaps=list(sitemaps))
    return site_objects.sitemap(site_paths.SITEMAP_INDEX, text)


def indexed_parts(index: bytes, settings: Settings) -> dict[str, int]:
    """How many sitemap parts a sitemap index written by `sitemap_index` lists for each show."""
    locations = ElementTree.fromstring(index).iterfind(f"{{{SITEMAPS_NS}}}sitemap/{{{SITEMAPS_NS}}}loc")
    # Each location is <site>/<show>/sitemap.xml or <site>/<show>/sitemap-<k>.xml, and a show's
    # parts are listed from 1 without a gap, so counting them gives the last.
    return dict(Counter(location.text.removeprefix(settings.site_url).split("/")[1] for location in locations))


def robots(settings: Settings) -> SiteObject:
    text = render("robots.txt", site_url=settings.site_url, paths=site_paths)
    return site_objects.plain_text(site_paths.ROBOTS, text, site_objects.STATIC_CACHE)
