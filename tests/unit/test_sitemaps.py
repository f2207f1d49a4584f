"""Sitemaps and robots.txt: every page listed, lastmod from the inputs, robots naming the index."""

from lxml import etree

from podpages import sitemaps
from support.catalogs import SETTINGS, daily_catalog

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def test_a_show_sitemap_lists_its_page_its_years_and_every_episode_with_lastmod_from_published():
    catalog = daily_catalog(12)

    tree = etree.fromstring(sitemaps.show_sitemap(catalog, SETTINGS).body)
    lastmod = dict(
        zip(tree.xpath("//sm:loc/text()", namespaces=NS), tree.xpath("//sm:lastmod/text()", namespaces=NS), strict=True)
    )

    assert lastmod[f"{SETTINGS.site_url}/daily/"] == "2026-01-01T09:00:00Z"
    assert lastmod[f"{SETTINGS.site_url}/daily/2025/"] == "2025-12-31T09:00:00Z"
    assert lastmod[f"{SETTINGS.site_url}/daily/2026/"] == "2026-01-01T09:00:00Z"
    assert lastmod[f"{SETTINGS.site_url}/daily/e01/"] == "2025-12-21T09:00:00Z"
    assert len(lastmod) == 1 + 2 + 12


def test_the_index_lists_each_show_sitemap_once_in_order():
    tree = etree.fromstring(sitemaps.sitemap_index({"b", "a"}, SETTINGS).body)

    assert tree.xpath("//sm:sitemap/sm:loc/text()", namespaces=NS) == [
        f"{SETTINGS.site_url}/a/sitemap.xml",
        f"{SETTINGS.site_url}/b/sitemap.xml",
    ]


def test_robots_names_the_sitemap_index_and_keeps_crawlers_off_the_api():
    robots = sitemaps.robots(SETTINGS)

    assert f"Sitemap: {SETTINGS.site_url}/sitemap.xml" in robots.body.decode().splitlines()
    assert "Disallow: /api/" in robots.body.decode().splitlines()
    assert robots.content_type == "text/plain; charset=utf-8"
