"""Every show's feed, fetched over HTTP from the local stack, checked tag by tag: each podcast:* tag
against the podcast namespace's XML Schema, Apple's required tags, and the inline chapters as gPodder's
podcastparser reads them. The feed's RFC 5005 archives pass the same audits, in a render of the same
catalogue whose feeds are short enough to have archives."""

import io
from pathlib import Path

import feedparser
import podcastparser
import pytest
from lxml import etree

from podpages import site_paths
from podpages.cli.main import main
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


def missing_apple_tags(body: bytes) -> list[tuple[str | None, str]]:
    """The tags Apple requires that the feed document lacks: (None, path) for the channel's, (the
    item's title, path) for an item's."""
    channel = etree.fromstring(body).find("channel")
    missing: list[tuple[str | None, str]] = [
        (None, path) for path in APPLE_CHANNEL if not channel.xpath(path, namespaces=NS)
    ]
    for item in channel.iter("item"):
        missing += [(item.findtext("title"), path) for path in APPLE_ITEM if not item.xpath(path, namespaces=NS)]
    return missing


def test_every_feed_has_the_tags_apple_requires(site, feeds):
    for catalog in site.catalogs:
        assert missing_apple_tags(feeds[catalog.show]) == [], catalog.show


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


ARCHIVED_SITE = "https://podcasts.example.com"
ARCHIVED_FEED_ITEMS = 4  # the catalogue's longest show runs to several archive documents of 4


def archive_chain(out: Path, show: str) -> list[bytes]:
    """The show's feed, then each archive document that `prev-archive` leads to, as a reader follows them."""
    documents, url = [], ARCHIVED_SITE + site_paths.feed(show)
    while url:
        assert url.startswith(ARCHIVED_SITE + "/"), url
        documents.append((out / url.removeprefix(ARCHIVED_SITE + "/")).read_bytes())
        links = (
            etree.fromstring(documents[-1]).find("channel").xpath("atom:link[@rel='prev-archive']/@href", namespaces=NS)
        )
        url = links[0] if links else None
    return documents


def test_the_feeds_archives_pass_the_feeds_audits_and_hold_every_episode(site, tmp_path):
    out = tmp_path / "site"
    arguments = ["--out", str(out), "--site-url", ARCHIVED_SITE, "--feed-max-items", str(ARCHIVED_FEED_ITEMS)]
    assert main(["render", str(site.catalogue), *arguments]) == 0

    archives = 0
    for catalog in site.catalogs:
        chain = archive_chain(out, catalog.show)
        archives += len(chain) - 1
        for body in chain[1:]:
            assert schema_errors(body) == [], catalog.show
            assert not feedparser.parse(body).bozo, catalog.show
            assert missing_apple_tags(body) == [], catalog.show
        found = [etree.fromstring(body).xpath("channel/item/guid/text()") for body in chain]
        assert all(len(set(guids)) == len(guids) for guids in found), catalog.show
        # The archives hold every episode, the newest too, which the feed holds as well.
        assert set().union(*found) == {entry.guid for entry in catalog.episodes}, catalog.show
    if not archives:
        pytest.skip(f"no show of the catalogue has more than {ARCHIVED_FEED_ITEMS} episodes")
