"""Every show's feed, fetched over HTTP from the local stack, checked tag by tag: each podcast:* tag
against the podcast namespace's XML Schema, Apple's required tags, and the inline chapters as gPodder's
podcastparser reads them."""

import io

import podcastparser
import pytest
from lxml import etree

from podpages import site_paths
from support.feeds import APPLE_CHANNEL, APPLE_ITEM, NS
from support.podcast_namespace import podcast_elements, schema_errors


@pytest.fixture(scope="module")
def feeds(site) -> dict[str, bytes]:
    return {catalog.show: site.page(site_paths.feed(catalog.show)) for catalog in site.catalogs}


def test_every_podcast_tag_of_every_feed_is_valid_by_the_namespaces_schema(site, feeds):
    for catalog in site.catalogs:
        body = feeds[catalog.show]

        assert podcast_elements(body), catalog.show  # podcast:guid at least
        assert schema_errors(body) == [], catalog.show


def test_every_feed_has_the_tags_apple_requires(site, feeds):
    for catalog in site.catalogs:
        channel = etree.fromstring(feeds[catalog.show]).find("channel")
        for path in APPLE_CHANNEL:
            assert channel.xpath(path, namespaces=NS), (catalog.show, path)
        for item in channel.iter("item"):
            for path in APPLE_ITEM:
                assert item.xpath(path, namespaces=NS), (catalog.show, item.findtext("title"), path)


def test_gpodder_reads_each_episodes_chapters_from_the_feed(site, feeds):
    with_chapters = 0
    for catalog in site.catalogs:
        parsed = podcastparser.parse(site.url + site_paths.feed(catalog.show), io.BytesIO(feeds[catalog.show]))
        read = {episode["guid"]: episode.get("chapters", []) for episode in parsed["episodes"]}
        for entry in catalog.episodes:
            expected = [(int(chapter.start), chapter.title) for chapter in entry.chapters()]
            assert [(chapter["start"], chapter["title"]) for chapter in read[entry.guid]] == expected, entry.slug
            with_chapters += bool(expected)
    if not with_chapters:
        pytest.skip("the catalogue has no episode with chapters")
