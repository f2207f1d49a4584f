"""Every show's feed, fetched over HTTP from the local stack and read the way podcast apps read it:
feedparser, Apple's required tags, PSP-1's required and recommended tags, transcripts, dates and
durations, and GUIDs that never change."""

import email.utils
import subprocess
import sys

import feedparser
import pytest
from lxml import etree

from podpages import site_paths
from podpages.cli.source_folder import read_source_folder, upload_files
from podpages.durations import total_seconds
from podpages.render.feed import podcast_guid
from podpages.settings import Settings
from support.feeds import APPLE_CHANNEL, APPLE_ITEM, NS, RFC_2822

PSP1_CHANNEL = ["atom:link[@rel='self']/@href", "link", "podcast:guid", "itunes:author"]


@pytest.fixture(scope="module")
def feeds(site) -> dict[str, bytes]:
    return {catalog.show: site.page(site_paths.feed(catalog.show)) for catalog in site.catalogs}


def channel_of(body: bytes):
    return etree.fromstring(body).find("channel")


def test_feedparser_reads_every_feed_without_a_bozo_flag(site, feeds):
    for catalog in site.catalogs:
        parsed = feedparser.parse(feeds[catalog.show])

        assert not parsed.bozo, (catalog.show, parsed.get("bozo_exception"))
        assert len(parsed.entries) == len(catalog.episodes)
        assert parsed.feed.title == catalog.show_document.title


def test_every_tag_apple_and_psp_1_require_is_there(site, feeds):
    for catalog in site.catalogs:
        channel = channel_of(feeds[catalog.show])
        for path in APPLE_CHANNEL + PSP1_CHANNEL:
            assert channel.xpath(path, namespaces=NS), (catalog.show, path)
        assert channel.xpath("atom:link[@rel='self']/@href", namespaces=NS) == [
            site.url + site_paths.feed(catalog.show)
        ]
        assert channel.xpath("podcast:guid/text()", namespaces=NS) == [
            str(catalog.show_document.guid or podcast_guid(site.url + site_paths.feed(catalog.show)))
        ]
        assert channel.xpath("itunes:explicit/text()", namespaces=NS)[0] in ("true", "false")
        locked = channel.xpath("podcast:locked/text()", namespaces=NS)
        if catalog.show_document.locked is not None:
            assert locked == ["yes" if catalog.show_document.locked else "no"], catalog.show
        for item in channel.iter("item"):
            for path in APPLE_ITEM:
                assert item.xpath(path, namespaces=NS), (catalog.show, item.findtext("title"), path)
            assert item.xpath("itunes:explicit/text()", namespaces=NS)[0] in ("true", "false")


def test_dates_durations_and_transcripts_follow_each_episode(site, feeds):
    for catalog in site.catalogs:
        items = {item.findtext("title"): item for item in channel_of(feeds[catalog.show]).iter("item")}
        for entry in catalog.episodes:
            item = items[entry.episode.title]
            published = item.findtext("pubDate")
            assert RFC_2822.match(published), published
            assert email.utils.parsedate_to_datetime(published) == entry.published.replace(microsecond=0)
            assert item.xpath("itunes:duration/text()", namespaces=NS) == [str(total_seconds(entry.episode.duration))]
            transcripts = item.xpath("podcast:transcript", namespaces=NS)
            assert [link.get("url") for link in transcripts] == expected_transcripts(site, catalog, entry), entry.slug
            for link in transcripts:
                status, headers, _body = site.get(link.get("url").removeprefix(site.url))
                assert status == 200 and headers["Content-Type"].startswith(link.get("type")), link.get("url")
                assert link.get("rel") == ("captions" if link.get("type") in CAPTIONS else None)


CAPTIONS = ("text/vtt", "application/x-subrip")  # the timed formats players show as captions


def expected_transcripts(site, catalog, entry) -> list[str]:
    """A companion's four formats and its page, or the JSON's text alone, or nothing."""
    if catalog.companion(entry.slug):
        files = [site_paths.transcript_file(catalog.show, entry.slug, ext) for ext in ("vtt", "srt", "json", "txt")]
        return [site.url + path for path in [*files, site_paths.transcript_page(catalog.show, entry.slug)]]
    return [site.url + site_paths.transcript(catalog.show, entry.slug)] if entry.transcript else []


def test_guids_are_unique_and_stable_across_re_uploads_and_a_from_scratch_render(site, feeds, tmp_path):
    before = {show: channel_of(body).xpath("item/guid/text()") for show, body in feeds.items()}
    uploads = [str(path) for path in upload_files([site.catalogue])]

    republished = subprocess.run(
        [sys.executable, "-m", "podpages.cli.main", "publish", *uploads, "--endpoint-url", site.demo.endpoint],
        capture_output=True,
        text=True,
        timeout=600,
    )
    rendered = subprocess.run(
        [sys.executable, "-m", "podpages.cli.main", "render", str(site.catalogue), "--out", str(tmp_path / "site")]
        + ["--site-url", site.url],
        capture_output=True,
        text=True,
        timeout=600,
    )

    # Both exit 1 where the catalogue holds files the contract rejects, and 0 where it holds none
    expected = 1 if read_source_folder(site.catalogue, Settings(site_url=site.url)).problems else 0
    assert republished.returncode == expected, republished.stdout + republished.stderr
    assert rendered.returncode == expected, rendered.stderr
    for show, guids in before.items():
        assert len(set(guids)) == len(guids), show
        after = channel_of(site.page(site_paths.feed(show))).xpath("item/guid/text()")
        scratch = channel_of((tmp_path / "site" / show / "feed.xml").read_bytes()).xpath("item/guid/text()")
        assert after == guids == scratch, show
