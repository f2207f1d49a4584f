"""The RSS feed, read by structure (XPath, as feedgen's own tests do) and by feedparser, as podcast apps do."""

import locale
import sys
from concurrent.futures import ThreadPoolExecutor

import feedparser
import pytest
from lxml import etree

from podpages.catalog.changes import TranscriptPut
from podpages.catalog.model import Catalog
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render.feed import feed, podcast_guid
from podpages.settings import Settings
from support.catalogs import (
    SETTINGS,
    daily_catalog,
    episode_document,
    example_folder,
    put_episode,
    put_show,
    show_document,
)
from support.feeds import NS, RFC_2822


@pytest.fixture(scope="module")
def pytorch():
    return example_folder().catalogs["pytorch"]


@pytest.fixture(scope="module")
def channel(pytorch):
    return etree.fromstring(feed(pytorch, SETTINGS).body).find("channel")


def test_feedparser_reads_every_example_feed_without_complaint():
    for catalog in example_folder().catalogs.values():
        parsed = feedparser.parse(feed(catalog, SETTINGS).body)

        assert not parsed.bozo, parsed.get("bozo_exception")
        assert len(parsed.entries) == len(catalog.episodes)


APPLE_CHANNEL_TAGS = (
    "title",
    "description",
    "language",
    "link",
    "itunes:image/@href",
    "itunes:category/@text",
    "itunes:explicit",
)


def test_the_channel_has_every_tag_apple_requires(channel):
    for path in APPLE_CHANNEL_TAGS:
        assert channel.xpath(path, namespaces=NS), path
    assert channel.xpath("itunes:explicit/text()", namespaces=NS) == ["false"]
    assert channel.xpath("itunes:author/text()", namespaces=NS) == ["PyTorch Daily Briefings"]


def test_a_show_without_a_document_still_has_every_tag_apple_requires():
    channel = etree.fromstring(feed(daily_catalog(2), SETTINGS).body).find("channel")

    for path in APPLE_CHANNEL_TAGS:
        assert channel.xpath(path, namespaces=NS), path


def test_every_item_has_what_apple_requires(channel):
    for item in channel.iter("item"):
        assert item.findtext("title")
        assert item.xpath("enclosure/@url") and item.xpath("enclosure/@length") and item.xpath("enclosure/@type")
        assert item.xpath("guid[@isPermaLink='false']/text()")
        assert RFC_2822.match(item.findtext("pubDate"))
        assert item.xpath("itunes:explicit/text()", namespaces=NS)[0] in ("true", "false")


def test_items_are_newest_first_with_durations_in_seconds(channel, pytorch):
    items = list(channel.iter("item"))

    assert [item.findtext("title") for item in items] == [entry.episode.title for entry in pytorch.newest(0)]
    seed = next(item for item in items if item.findtext("title") == "Backend Flexibility Revolution")
    assert seed.xpath("itunes:duration/text()", namespaces=NS) == ["245"]
    assert seed.findtext("pubDate") == "Wed, 28 Jan 2026 11:05:41 +0000"


def test_the_channel_links_to_itself_and_to_the_show(channel):
    assert channel.xpath("atom:link[@rel='self']/@href", namespaces=NS) == [f"{SETTINGS.site_url}/pytorch/feed.xml"]
    assert channel.findtext("link") == f"{SETTINGS.site_url}/pytorch/"


def test_the_podcast_namespace_tags_are_there(channel):
    assert channel.xpath("podcast:guid/text()", namespaces=NS) == [
        podcast_guid(f"{SETTINGS.site_url}/pytorch/feed.xml")
    ]
    assert channel.xpath("podcast:locked/text()", namespaces=NS) == ["yes"]
    assert channel.xpath("podcast:locked/@owner", namespaces=NS) == ["podcasts@example.com"]


def test_a_transcript_is_linked_exactly_where_one_exists(channel, pytorch):
    for item, entry in zip(channel.iter("item"), pytorch.newest(0), strict=True):
        links = item.xpath("podcast:transcript/@url", namespaces=NS)
        expected = [f"{SETTINGS.site_url}/pytorch/{entry.slug}/transcript.txt"] if entry.transcript else []
        assert links == expected, entry.slug


def test_the_podcast_guid_follows_the_namespace_rule():
    # The podcast namespace's own worked example.
    assert podcast_guid("https://mp3s.nashownotes.com/pc20rss.xml") == "917393e3-1b1e-5cef-ace4-edaa54e1f810"


def test_explicit_is_true_or_false_and_an_episode_may_override_the_show():
    catalog = Catalog(show="s").apply(put_show("s", show_document(explicit=True)), 1500)
    catalog = catalog.apply(put_episode("s", "clean", episode_document("Clean", explicit=False)), 1500)
    catalog = catalog.apply(put_episode("s", "inherits", episode_document("Inherits", "2026-01-02T00:00:00Z")), 1500)
    channel = etree.fromstring(feed(catalog, SETTINGS).body).find("channel")

    assert channel.xpath("itunes:explicit/text()", namespaces=NS) == ["true"]
    assert [item.xpath("itunes:explicit/text()", namespaces=NS)[0] for item in channel.iter("item")] == [
        "true",
        "false",
    ]


def test_no_date_in_the_feed_comes_from_the_clock():
    catalog = daily_catalog(3)
    body = feed(catalog, SETTINGS).body
    channel = etree.fromstring(body).find("channel")

    assert channel.findtext("lastBuildDate") == "Tue, 23 Dec 2025 09:00:00 +0000"
    assert feed(catalog, SETTINGS).body == body


def test_a_show_with_no_episodes_has_no_build_date_rather_than_an_invented_one():
    catalog = Catalog(show="s").apply(put_show("s", show_document()), 1500)

    channel = etree.fromstring(feed(catalog, SETTINGS).body).find("channel")

    assert channel.find("lastBuildDate") is None and not list(channel.iter("item"))


def test_a_show_without_artwork_names_the_default_cover():
    channel = etree.fromstring(feed(daily_catalog(1), SETTINGS).body).find("channel")

    assert channel.xpath("itunes:image/@href", namespaces=NS) == [f"{SETTINGS.site_url}/cover.png"]


def test_subcategories_nest_under_their_category():
    catalog = Catalog(show="s").apply(put_show("s", show_document(categories=["Tech News", "Technology"])), 1500)
    channel = etree.fromstring(feed(catalog, SETTINGS).body).find("channel")

    assert channel.xpath("itunes:category/@text", namespaces=NS) == ["News", "Technology"]
    assert channel.xpath("itunes:category[@text='News']/itunes:category/@text", namespaces=NS) == ["Tech News"]


def test_feed_max_items_keeps_the_newest():
    settings = Settings(site_url=SETTINGS.site_url, feed_max_items=2)

    items = etree.fromstring(feed(daily_catalog(5), settings).body).find("channel").findall("item")

    assert [item.findtext("title") for item in items] == ["Episode 5", "Episode 4"]


def test_guids_are_stable_across_re_renders_and_re_uploads():
    catalog = daily_catalog(3)
    edited = catalog.apply(
        put_episode("daily", "e02", episode_document("Episode 2, edited", "2025-12-22T09:00:00Z")), 1500
    )

    def guids(c):
        return etree.fromstring(feed(c, SETTINGS).body).xpath("//item/guid/text()")

    assert guids(catalog) == guids(edited) and len(set(guids(catalog))) == 3


def test_artwork_itunes_cannot_take_stays_out_of_itunes_image_and_the_feed_still_renders():
    catalog = Catalog(show="s").apply(put_show("s", show_document(image="https://cdn.example.com/s.webp")), 1500)
    catalog = catalog.apply(put_episode("s", "e", episode_document(image="https://cdn.example.com/e.webp")), 1500)

    channel = etree.fromstring(feed(catalog, SETTINGS).body).find("channel")

    assert channel.xpath("itunes:image/@href", namespaces=NS) == [f"{SETTINGS.site_url}/cover.png"]
    assert channel.xpath("image/url/text()") == ["https://cdn.example.com/s.webp"]
    assert channel.xpath("item/itunes:image", namespaces=NS) == []


def test_a_companion_transcript_is_listed_in_every_format_in_the_shows_language():
    catalog = Catalog(show="s").apply(put_show("s", show_document(language="de")), 1500)
    catalog = catalog.apply(put_episode("s", "plain", episode_document("Plain", transcript="Words.")), 1500)
    catalog = catalog.apply(put_episode("s", "timed", episode_document("Timed", "2026-02-01T10:00:00Z")), 1500)
    companion = TranscriptPut(parse_source_key("episodes/s/timed.vtt"), (Cue(0, 1000, "Hallo.", "Ada"),))
    item = {
        entry.findtext("title"): entry
        for entry in etree.fromstring(feed(catalog.apply(companion, 1500), SETTINGS).body).iter("item")
    }

    timed = [dict(link.attrib) for link in item["Timed"].xpath("podcast:transcript", namespaces=NS)]
    base = f"{SETTINGS.site_url}/s/timed"
    assert timed == [
        {"url": f"{base}/transcript.vtt", "type": "text/vtt", "language": "de", "rel": "captions"},
        {"url": f"{base}/transcript.srt", "type": "application/x-subrip", "language": "de", "rel": "captions"},
        {"url": f"{base}/transcript.json", "type": "application/json", "language": "de"},
        {"url": f"{base}/transcript.txt", "type": "text/plain", "language": "de"},
        {"url": f"{base}/transcript/", "type": "text/html", "language": "de"},
    ]
    plain = [dict(link.attrib) for link in item["Plain"].xpath("podcast:transcript", namespaces=NS)]
    assert plain == [{"url": f"{SETTINGS.site_url}/s/plain/transcript.txt", "type": "text/plain"}]  # as v1 had it


def whole_document(catalog: Catalog, settings: Settings) -> bytes:
    """The feed as feedgen writes it in one piece: every item in one generator, serialised at once."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("podpages.render.feed.ITEMS_PER_PART", 10**9)
        parts = list(feed(catalog, settings).parts())
    assert len(parts) == (3 if catalog.count else 2)  # the channel's own tags, every item, the channel's end
    return b"".join(parts)


@pytest.mark.parametrize("count", [0, 1, 7, 50, 51, 120])
def test_a_feed_is_rendered_a_bounded_part_at_a_time_into_the_bytes_of_the_whole_document(count, monkeypatch):
    catalog = daily_catalog(count)
    whole = whole_document(catalog, SETTINGS)
    monkeypatch.setattr("podpages.render.feed.ITEMS_PER_PART", 7)

    parts = list(feed(catalog, SETTINGS).parts())

    assert b"".join(parts) == whole
    assert len(parts) == 2 + -(-count // 7)
    assert [part.count(b"<item>") for part in parts[1:-1]] == [7] * (count // 7) + ([count % 7] if count % 7 else [])
    assert parts[0].count(b"<item>") == parts[-1].count(b"<item>") == 0
    assert len(feedparser.parse(whole).entries) == count


def test_long_items_are_rendered_in_shorter_runs_into_the_same_document(monkeypatch):
    # Given 12 episodes, each with about 2,000 characters of show notes, and runs of at most 5,000 of them
    catalog = Catalog(show="daily")
    for number in range(1, 13):
        document = episode_document(f"Episode {number}", f"2026-01-{number:02d}T10:00:00Z", notes="Words. " * 285)
        catalog = catalog.apply(put_episode("daily", f"e{number:02d}", document), SETTINGS.excerpt_chars)
    assert all(1_700 < len(entry.notes_html or "") <= 2_500 for entry in catalog.episodes)
    whole = whole_document(catalog, SETTINGS)
    monkeypatch.setattr("podpages.render.feed.PART_WEIGHT", 5_000)

    parts = list(feed(catalog, SETTINGS).parts())

    # Then each run holds as many items as fit: two
    assert [part.count(b"<item>") for part in parts[1:-1]] == [2] * 6
    assert b"".join(parts) == whole
    # And a run holds its first item whatever it weighs, while items with neither chapters nor notes
    # keep runs of ITEMS_PER_PART
    monkeypatch.setattr("podpages.render.feed.PART_WEIGHT", 0)
    assert [part.count(b"<item>") for part in list(feed(catalog, SETTINGS).parts())[1:-1]] == [1] * 12
    assert [part.count(b"<item>") for part in list(feed(daily_catalog(60), SETTINGS).parts())[1:-1]] == [50, 10]


def test_feeds_written_on_several_threads_at_once_leave_the_process_locale_as_it_was():
    # The site bucket writes a publish's feed and its archives from several threads. feedgen formats
    # each date by setting the process's locale to C and back, so two at once could leave it C, and
    # every later text read of the process would then decode ASCII alone.
    catalog = daily_catalog(40)
    for number in range(1, 11):  # trailers' dates are written apart from feedgen's items
        trailer = episode_document(f"Coming soon {number}", f"2025-11-{number:02d}T09:00:00Z", episode_type="trailer")
        catalog = catalog.apply(put_episode("daily", f"trailer-{number}", trailer), SETTINGS.excerpt_chars)
    before = locale.setlocale(locale.LC_ALL)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can, as on a busy machine
    try:
        with ThreadPoolExecutor(max_workers=4) as threads:
            list(threads.map(lambda _: b"".join(feed(catalog, SETTINGS).parts()), range(40)))
        after = locale.setlocale(locale.LC_ALL)
    finally:
        sys.setswitchinterval(interval)
        locale.setlocale(locale.LC_ALL, before)  # so that a failure here leaves no later test in C

    assert after == before
