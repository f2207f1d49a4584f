"""Sitemaps as crawlers fetch them, over HTTP from the local stack: robots.txt names the index,
the index and every sitemap it lists conform to the sitemaps.org protocol (checked against XSDs
written from it, in sitemaps.org/), no file holds more than 50,000 URLs, every page is listed
once, and every lastmod comes from the inputs."""

from pathlib import Path

import pytest
from lxml import etree

from podpages import site_paths
from podpages.moments import rfc3339

SCHEMAS = Path(__file__).parent / "sitemaps.org"
NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
MAX_URLS = 50_000


@pytest.fixture(scope="module")
def schemas() -> dict[str, etree.XMLSchema]:
    return {name: etree.XMLSchema(etree.parse(str(SCHEMAS / f"{name}.xsd"))) for name in ("sitemap", "siteindex")}


def valid(schema: etree.XMLSchema, body: bytes) -> etree._Element:
    document = etree.fromstring(body)
    assert schema.validate(document), schema.error_log
    return document


def test_the_schemas_reject_what_the_protocol_forbids(schemas):
    urlset = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>2026-01-01</lastmod></url></urlset>'
    )
    naive = (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc>'
        b"<lastmod>2026-01-01T10:00:00</lastmod></url></urlset>"
    )
    nested = b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemapindex/></sitemapindex>'

    assert not schemas["sitemap"].validate(etree.fromstring(urlset))  # no loc
    assert not schemas["sitemap"].validate(etree.fromstring(naive))  # a time without its zone
    assert not schemas["siteindex"].validate(etree.fromstring(nested))


def test_robots_txt_names_the_sitemap_index(site):
    robots = site.page(site_paths.ROBOTS).decode()

    assert f"Sitemap: {site.url}{site_paths.SITEMAP_INDEX}" in robots.splitlines()


def test_every_page_is_listed_once_with_a_lastmod_from_its_inputs(site, schemas):
    index = valid(schemas["siteindex"], site.page(site_paths.SITEMAP_INDEX))
    listed: list[tuple[str, str | None]] = []
    for location in index.xpath("sm:sitemap/sm:loc/text()", namespaces=NS):
        assert location.startswith(site.url + "/"), location
        sitemap = valid(schemas["sitemap"], site.page(location.removeprefix(site.url)))
        urls = sitemap.xpath("sm:url", namespaces=NS)
        assert len(urls) <= MAX_URLS, location
        listed += [(url.findtext("sm:loc", namespaces=NS), url.findtext("sm:lastmod", namespaces=NS)) for url in urls]

    expected = {}
    for catalog in site.catalogs:
        newest = catalog.newest(1)
        expected[site.url + site_paths.show_home(catalog.show)] = rfc3339(newest[0].published) if newest else None
        for year in catalog.years():
            expected[site.url + site_paths.archive(catalog.show, year)] = rfc3339(catalog.in_year(year)[0].published)
        for entry in catalog.episodes:
            expected[site.url + site_paths.episode(catalog.show, entry.slug)] = rfc3339(entry.published)
            if catalog.companion(entry.slug):
                expected[site.url + site_paths.transcript_page(catalog.show, entry.slug)] = rfc3339(entry.published)
    assert len(listed) == len(dict(listed)), "a page is listed twice"
    assert dict(listed) == expected
