"""Sitemaps for crawlers: one per show, an index of them, and robots.txt pointing at the index.

`lastmod` comes from the episodes' `published` times, never from the clock.
"""

from collections.abc import Iterable
from xml.etree import ElementTree

from podpages import site_objects, site_paths
from podpages.catalog import Catalog
from podpages.settings import Settings
from podpages.site_objects import SiteObject
from podpages.templating import render

SITEMAPS_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def show_sitemap(catalog: Catalog, settings: Settings) -> SiteObject:
    path = site_paths.show_sitemap(catalog.show)
    text = render(
        "sitemap.xml",
        site_url=settings.site_url,
        paths=site_paths,
        slug=catalog.show,
        episodes=catalog.newest(0),
        years=[(year, catalog.in_year(year)[0].published) for year in catalog.years()],
    )
    return site_objects.sitemap(path, text)


def sitemap_index(shows: Iterable[str], settings: Settings) -> SiteObject:
    text = render("sitemap-index.xml", site_url=settings.site_url, paths=site_paths, shows=sorted(shows))
    return site_objects.sitemap(site_paths.SITEMAP_INDEX, text)


def indexed_shows(index: bytes, settings: Settings) -> set[str]:
    """The shows a sitemap index written by `sitemap_index` lists."""
    locations = ElementTree.fromstring(index).iterfind(f"{{{SITEMAPS_NS}}}sitemap/{{{SITEMAPS_NS}}}loc")
    # Each location is <site>/<show>/sitemap.xml.
    return {location.text.removeprefix(settings.site_url).split("/")[1] for location in locations}


def robots(settings: Settings) -> SiteObject:
    text = render("robots.txt", site_url=settings.site_url, paths=site_paths)
    return site_objects.plain_text(site_paths.ROBOTS, text, site_objects.STATIC_CACHE)
