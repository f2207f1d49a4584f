"""Escaping: every field is untrusted text. Markup in any field comes out as text, never as markup,
in the page, its JSON-LD, the feed and the sitemaps."""

import json

import feedparser
import pytest
from lxml import etree, html

from podpages.catalog.model import Catalog
from podpages.nearby import listing as nearby_listing
from podpages.render import pages, sitemaps
from podpages.render.feed import feed
from support.catalogs import SETTINGS, episode_document, indexed, put_episode, put_show, show_document

HOSTILE = "</script><script>alert(1)</script><!-- ]]> &amp; \"quoted\" 'single' <b>bold</b> ]]>"


@pytest.fixture(scope="module")
def catalog():
    show = show_document(
        title=f"Show {HOSTILE}",
        description=f"Description {HOSTILE}",
        author=f"Author {HOSTILE}",
        overview=f"Overview {HOSTILE}\nSecond line {HOSTILE}",
        owner={"name": f"Owner {HOSTILE}", "email": "owner@example.com"},
    )
    episode = episode_document(
        title=f"Title {HOSTILE}",
        summary=f"Summary {HOSTILE}",
        transcript=f"Transcript {HOSTILE}\n\nMore {HOSTILE}",
        keywords=[f"keyword {HOSTILE}"],
    )
    neighbour = episode_document(title=f"Neighbour {HOSTILE}", published="2026-01-02T10:00:00Z")
    catalog = Catalog(show="hostile").apply(put_show("hostile", show), 1500)
    catalog = catalog.apply(put_episode("hostile", "one", episode), 1500)
    return catalog.apply(put_episode("hostile", "two", neighbour), 1500)


@pytest.fixture(scope="module")
def page(catalog):
    return pages.episode_page(catalog, "one", SETTINGS).body.decode()


def test_no_markup_from_a_field_survives_in_the_page(page):
    assert "<script>alert" not in page
    assert "<b>bold" not in page
    assert "<!-- ]]>" not in page
    # The only script element is the JSON-LD block, opened and closed once.
    assert page.count("<script") == 1 and page.count("</script>") == 1


def test_the_page_shows_each_field_as_the_text_it_was(page):
    tree = html.fromstring(page)

    assert tree.findtext(".//h1") == f"Show {HOSTILE}: Title {HOSTILE}"
    assert tree.find(".//title").text == f"Show {HOSTILE}: Title {HOSTILE}"
    assert f"Summary {HOSTILE}" in tree.xpath("//article/p/text()")
    assert f"Transcript {HOSTILE}" in tree.xpath("//section[@aria-labelledby='excerpt']/p/text()")
    assert f"Overview {HOSTILE}" in tree.xpath("//section[@aria-labelledby='overview']/p/text()")
    assert f"Neighbour {HOSTILE}" in tree.xpath("//section[@aria-labelledby='nearby']//a/text()")
    assert tree.xpath("//meta[@property='og:title']/@content") == [f"Title {HOSTILE}"]


def test_json_ld_carries_the_fields_exactly_and_cannot_close_its_block(page):
    block = html.fromstring(page).xpath("//script[@type='application/ld+json']/text()")[0]

    data = json.loads(block)

    assert "<" not in block and ">" not in block
    assert data["name"] == f"Title {HOSTILE}"
    assert data["description"] == f"Summary {HOSTILE}"
    assert data["partOfSeries"]["name"] == f"Show {HOSTILE}"
    assert data["keywords"] == f"keyword {HOSTILE}"


def test_the_show_page_and_nearby_fragment_escape_too(catalog):
    show_page = pages.show_page(catalog, SETTINGS).body.decode()
    fragment = nearby_listing.as_html(indexed(catalog), "one", 8, SETTINGS.site_url)

    for text in (show_page, fragment):
        assert "<script>alert" not in text and "<b>bold" not in text
    assert html.fromstring(show_page).findtext(".//h1") == f"Show {HOSTILE}"
    assert html.fromstring(fragment).xpath("//a/text()") == [f"Neighbour {HOSTILE}"]


def test_the_feed_carries_the_fields_as_text(catalog):
    body = feed(catalog, SETTINGS).body

    channel = etree.fromstring(body).find("channel")
    parsed = feedparser.parse(body)

    assert not parsed.bozo, parsed.get("bozo_exception")
    assert channel.findtext("title") == f"Show {HOSTILE}"
    assert {item.findtext("title") for item in channel.iter("item")} == {f"Title {HOSTILE}", f"Neighbour {HOSTILE}"}
    assert b"<script>alert" not in body and b"<b>bold" not in body


def test_sitemaps_parse_as_xml_whatever_the_fields(catalog):
    for item in (sitemaps.show_sitemap(catalog, SETTINGS), sitemaps.sitemap_index(["hostile"], SETTINGS)):
        assert etree.fromstring(item.body) is not None
