"""Sitemaps for crawlers: each show's, in parts (`catalog.sitemap_parts`), an index of every part,
and robots.txt pointing at the index.

`lastmod` comes from the episodes' `published` times, never from the clock.
"""

from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from urllib.parse import urlsplit
from xml.etree import ElementTree

from podpages import site_paths
from podpages.catalog import sitemap_parts as parts
from podpages.catalog.feed_archives import archive_bounds, archive_entries, frozen_pages
from podpages.catalog.model import Catalog
from podpages.render import site_objects
from podpages.render.site_objects import SiteObject
from podpages.settings import Settings
from podpages.templating import render

SITEMAPS_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def show_sitemaps(
    catalog: Catalog, settings: Settings, frozen: Iterable[int] | None = None, head: bool = True
) -> list[SiteObject]:
    """The show's sitemap parts, first to last: those of its `head`, and those of its `frozen` pages
    (`catalog.feed_archives`), or of every one."""
    head_parts = parts.head_parts(catalog, settings.feed_max_items)
    if frozen is None:
        frozen = range(1, frozen_pages(catalog, settings.feed_max_items) + 1)
    numbers = [*range(1, head_parts + 1)] if head else []
    return [show_sitemap(catalog, settings, part) for part in [*numbers, *(head_parts + n for n in sorted(frozen))]]


def show_sitemap(catalog: Catalog, settings: Settings, part: int = 1) -> SiteObject:
    """One part: the show page, its archives and its head, in their stable order and cut into runs of
    MAX_SITEMAP_URLS; or, past those, the episodes of one frozen page."""
    head = parts.head_parts(catalog, settings.feed_max_items)
    urls: list[tuple[str, datetime | None]]
    if part > head:
        entries = archive_entries(catalog, archive_bounds(catalog, settings.feed_max_items), part - head)
        rows = parts.sitemap_rows(catalog, entries)
        urls = _episode_urls(catalog.show, rows)
    else:
        start = (part - 1) * parts.MAX_SITEMAP_URLS
        urls = _head_urls(catalog, settings.feed_max_items)[start : start + parts.MAX_SITEMAP_URLS]
    text = render("sitemap.xml", site_url=settings.site_url, urls=urls)
    return site_objects.sitemap(site_paths.show_sitemap(catalog.show, part), text)


def _head_urls(catalog: Catalog, feed_max_items: int) -> list[tuple[str, datetime | None]]:
    """The show page, its year archives and its head's episodes, each followed by its transcript page
    if it has one, each with the moment it last changed."""
    show, head = catalog.show, parts.head_sitemap(catalog, feed_max_items)
    return [
        (site_paths.show_home(show), head.show_page),
        *((site_paths.archive(show, year), latest) for year, latest in head.years),
        *_episode_urls(show, head.episodes),
    ]


def _episode_urls(show: str, rows: Iterable[parts.SitemapRow]) -> list[tuple[str, datetime | None]]:
    """Each episode's page, followed by the page of its companion transcript if it has one."""
    urls: list[tuple[str, datetime | None]] = []
    for slug, published, transcript_page in rows:
        urls.append((site_paths.episode(show, slug), published))
        if transcript_page:
            urls.append((site_paths.transcript_page(show, slug), published))
    return urls


def sitemap_index(sitemaps: Iterable[str], settings: Settings) -> SiteObject:
    """The index of the sitemaps at these site paths, in the order given."""
    text = render("sitemap-index.xml", site_url=settings.site_url, sitemaps=list(sitemaps))
    return site_objects.sitemap(site_paths.SITEMAP_INDEX, text)


def indexed_parts(index: bytes, settings: Settings) -> dict[str, int]:
    """How many sitemap parts a sitemap index written by `sitemap_index` lists for each show.

    The index may have been written under another site URL (SiteUrl changed since), so each
    location is read by its path alone, whatever its host or base path: `settings` plays no part."""
    locations = ElementTree.fromstring(index).iterfind(f"{{{SITEMAPS_NS}}}sitemap/{{{SITEMAPS_NS}}}loc")
    # Each location is <site>/<show>/sitemap.xml or <site>/<show>/sitemap-<k>.xml, and a show's
    # parts are listed from 1 without a gap, so counting them gives the last.
    return dict(Counter(_indexed_show(location.text or "") for location in locations))


def _indexed_show(location: str) -> str:
    """The show whose sitemap part is at `location`: the folder the part's file is in."""
    return urlsplit(location).path.split("/")[-2]


def robots(settings: Settings) -> SiteObject:
    text = render("robots.txt", site_url=settings.site_url, paths=site_paths)
    return site_objects.plain_text(site_paths.ROBOTS, text, site_objects.STATIC_CACHE)
