"""Contract v2 in the RSS feed: every new field reaches its tag, read by structure (XPath), by feedparser,
by gPodder's podcastparser and against the podcast namespace's XML Schema; and nothing is written for a
field that is not set."""

import io

import feedparser
import podcastparser
import pytest
from lxml import etree, html

from podpages.catalog.model import Catalog
from podpages.render.feed import feed
from podpages.settings import Settings
from support.catalogs import SETTINGS, daily_catalog, episode_document, put_episode, put_show, show_document
from support.feeds import NS, RFC_2822
from support.podcast_namespace import schema_errors

SHOW = "rich"
FEED_URL = f"{SETTINGS.site_url}/{SHOW}/feed.xml"
HOSTILE_NOTES = (
    "# Links\n\n"
    "Read [the post](https://example.org/post), not [this](javascript:alert(1)).\n\n"
    '<script>alert("notes")</script> <a href="javascript:alert(2)" onclick="alert(3)">raw</a>'
)
CHAPTERS = [
    {"start": 0, "title": "Intro"},
    {"start": 95, "title": "Q&A <live>", "url": "https://example.org/qa"},
    {"start": 3725.25, "title": "Outro", "image": "https://example.org/outro.png"},
]
GUEST = {"name": "Grace Guest", "role": "guest", "href": "https://example.org/grace"}
HOST = {"name": "Hal Host", "role": "host", "img": "https://example.org/hal.jpg"}


def rich_show(**fields) -> dict:
    return show_document(
        "Rich show",
        persons=[HOST],
        funding=[{"url": "https://example.org/support", "text": "Support us"}],
        license={"name": "CC-BY-4.0", "url": "https://creativecommons.org/licenses/by/4.0/"},
        location={"name": "Lisbon", "geo": "geo:38.7223,-9.1393", "osm": "R5400890"},
        medium="video",
        update_frequency={"text": "Weekly", "rrule": "FREQ=WEEKLY", "complete": True},
        txt=[{"value": "verify-me", "purpose": "verify"}],
        podroll=[
            {"feed_guid": "917393e3-1b1e-5cef-ace4-edaa54e1f810", "feed_url": "https://example.org/other.xml"},
            {"feed_guid": "2d00c1b0-c3d7-586d-9853-6f106a360d26", "title": "Another show"},
        ],
        type="serial",
        complete=True,
        block=True,
        new_feed_url="https://feeds.example.org/rich.xml",
        copyright="© 2026 Rich",
        **fields,
    )


def rich_episode() -> dict:
    return episode_document(
        "The rich one",
        "2026-01-03T10:00:00Z",
        duration="PT1H5M",
        episode_number=2,
        season=1,
        notes=HOSTILE_NOTES,
        episode_type="bonus",
        chapters=CHAPTERS,
        persons=[GUEST],
        soundbites=[{"start": 12.5, "duration": 30, "title": "The best bit"}],
        location={"name": "Porto", "geo": "geo:41.1579,-8.6291"},
        license={"name": "CC0-1.0"},
        alternate_enclosures=[
            {"url": "https://media.example.com/a.opus", "type": "audio/opus", "length": 500, "bitrate": 64000.5},
            {"url": "https://media.example.com/a.mp4", "type": "video/mp4", "length": 9000, "title": "Video"},
        ],
        block=True,
    )


def trailer_episode() -> dict:
    return episode_document(
        "Coming soon",
        "2026-01-01T08:00:00Z",
        episode_type="trailer",
        episode_number=1,
        season=1,
        audio={"url": "https://media.example.com/trailer.mp3", "type": "audio/mpeg", "length": 1234},
    )


def catalog_of(show: dict | None, *episodes: tuple[str, dict]) -> Catalog:
    catalog = Catalog(show=SHOW)
    if show is not None:
        catalog = catalog.apply(put_show(SHOW, show), 1500)
    for slug, document in episodes:
        catalog = catalog.apply(put_episode(SHOW, slug, document), 1500)
    return catalog


@pytest.fixture(scope="module")
def rich_catalog() -> Catalog:
    plain = episode_document("Plain", "2026-01-02T10:00:00Z", episode_number=3)
    return catalog_of(rich_show(), ("trailer", trailer_episode()), ("plain", plain), ("rich", rich_episode()))


@pytest.fixture(scope="module")
def body(rich_catalog) -> bytes:
    return feed(rich_catalog, SETTINGS).body


@pytest.fixture(scope="module")
def channel(body):
    return etree.fromstring(body).find("channel")


def item_titled(channel, title: str):
    return next(item for item in channel.iter("item") if item.findtext("title") == title)


def xpath(node, path: str) -> list:
    return node.xpath(path, namespaces=NS)


def content_of(item):
    """content:encoded, parsed as the HTML it carries."""
    return html.fragment_fromstring(xpath(item, "content:encoded/text()")[0], create_parent="div")


# content:encoded


def test_the_notes_and_then_the_chapter_timestamps_make_content_encoded(channel):
    item = item_titled(channel, "The rich one")
    content = content_of(item)

    assert item.findtext("description") == "The summary of The rich one."
    assert content.xpath("h3/text()") == ["Links"]
    assert content.xpath(".//a/@href") == ["https://example.org/post"]
    # An hour-long episode: every timestamp has its hours; titles are text, not markup.
    assert content.xpath("p[last()]/text()") == ["0:00:00 Intro", "0:01:35 Q&A <live>", "1:02:05 Outro"]
    assert len(content.xpath("p[last()]/br")) == 2


def test_hostile_notes_are_inert_in_content_encoded(channel):
    content = content_of(item_titled(channel, "The rich one"))

    assert content.xpath(".//script") == []
    assert all(href.startswith(("https:", "http:", "mailto:")) for href in content.xpath(".//@href"))
    assert not any(name.startswith("on") for element in content.iter() for name in element.attrib)
    assert 'alert("notes")' in content.text_content()  # shown as the text it was, not run


def chapters(*starts: float) -> list[dict]:
    return [{"start": start, "title": f"Part {n}"} for n, start in enumerate(starts, start=1)]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"chapters": chapters(0, 60, 120)}, ["0:00 Part 1", "1:00 Part 2", "2:00 Part 3"]),
        ({"chapters": chapters(0, 60)}, None),  # too few for apps to trust
        ({"chapters": chapters(5, 60, 120)}, None),  # does not start at 0
        ({"chapters": chapters(0, 60), "notes": "Just notes."}, ["Just notes."]),
        ({}, None),
    ],
)
def test_timestamps_come_only_with_three_chapters_and_the_first_at_zero(fields, expected):
    catalog = catalog_of(None, ("e", episode_document(**fields)))

    item = etree.fromstring(feed(catalog, SETTINGS).body).find("channel/item")

    if expected is None:
        assert xpath(item, "content:encoded") == []
    else:
        assert content_of(item).xpath("p[last()]/text()") == expected


# Chapters


def test_chapters_are_linked_and_inline_as_podlove_simple_chapters(channel):
    item = item_titled(channel, "The rich one")

    assert xpath(item, "podcast:chapters/@url") == [f"{SETTINGS.site_url}/{SHOW}/rich/chapters.json"]
    assert xpath(item, "podcast:chapters/@type") == ["application/json+chapters"]
    assert xpath(item, "psc:chapters/@version") == ["1.2"]
    assert xpath(item, "psc:chapters/psc:chapter/@start") == ["00:00:00.000", "00:01:35.000", "01:02:05.250"]
    assert xpath(item, "psc:chapters/psc:chapter/@title") == ["Intro", "Q&A <live>", "Outro"]
    assert xpath(item, "psc:chapters/psc:chapter/@href") == ["https://example.org/qa"]
    assert xpath(item, "psc:chapters/psc:chapter/@image") == ["https://example.org/outro.png"]
    assert xpath(item_titled(channel, "Plain"), "psc:chapters | podcast:chapters") == []


def test_the_psc_namespace_is_declared_where_it_is_used_not_on_the_root(body):
    root = etree.fromstring(body)

    assert "psc" not in root.nsmap
    assert b'<psc:chapters xmlns:psc="http://podlove.org/simple-chapters" version="1.2">' in body


def test_gpodder_reads_the_chapters_episode_types_and_notes(body):
    parsed = podcastparser.parse(FEED_URL, io.BytesIO(body))
    episodes = {episode["title"]: episode for episode in parsed["episodes"]}
    rich = episodes["The rich one"]

    assert rich["chapters"] == [
        {"start": 0, "title": "Intro"},
        {"start": 95, "title": "Q&A <live>", "href": "https://example.org/qa"},
        {"start": 3725, "title": "Outro", "image": "https://example.org/outro.png"},
    ]
    assert "chapters" not in episodes["Plain"]
    assert {title: episode["type"] for title, episode in episodes.items()} == {
        "The rich one": "bonus",
        "Plain": "full",
        "Coming soon": "trailer",
    }
    assert '<a href="https://example.org/post">the post</a>' in rich["description_html"]
    assert parsed["type"] == "serial"


def test_feedparser_reads_the_v2_feed_without_complaint(body):
    parsed = feedparser.parse(body)
    rich = next(entry for entry in parsed.entries if entry.title == "The rich one")

    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.feed.itunes_type == "serial"
    assert parsed.feed.rights == "© 2026 Rich"
    assert parsed.feed.itunes_block == 1 and parsed.feed.itunes_complete == "Yes"
    assert rich.summary == "The summary of The rich one."
    assert rich.content[0].type == "text/html" and "example.org/post" in rich.content[0].value
    assert rich.itunes_episodetype == "bonus" and rich.itunes_block == 1
    assert [chapter["title"] for chapter in rich.psc_chapters["chapters"]] == ["Intro", "Q&A <live>", "Outro"]


# Item tags


def test_an_item_carries_every_v2_tag_of_its_episode(channel):
    item = item_titled(channel, "The rich one")

    assert xpath(item, "itunes:episodeType/text()") == ["bonus"]
    assert xpath(item, "itunes:block/text()") == ["Yes"]
    assert xpath(item, "podcast:season/text()") == ["1"] and xpath(item, "podcast:episode/text()") == ["2"]
    assert xpath(item, "podcast:soundbite/@startTime") == ["12.5"]
    assert xpath(item, "podcast:soundbite/@duration") == ["30"]
    assert xpath(item, "podcast:soundbite/text()") == ["The best bit"]
    assert xpath(item, "podcast:location/text()") == ["Porto"]
    assert xpath(item, "podcast:location/@geo") == ["geo:41.1579,-8.6291"]
    assert xpath(item, "podcast:license/text()") == ["CC0-1.0"] and xpath(item, "podcast:license/@url") == []
    assert xpath(item, "podcast:alternateEnclosure/@type") == ["audio/opus", "video/mp4"]
    assert xpath(item, "podcast:alternateEnclosure/@bitrate") == ["64000.5"]
    assert xpath(item, "podcast:alternateEnclosure/@title") == ["Video"]
    assert xpath(item, "podcast:alternateEnclosure/podcast:source/@uri") == [
        "https://media.example.com/a.opus",
        "https://media.example.com/a.mp4",
    ]


def test_an_episodes_persons_replace_the_shows_and_an_episode_without_any_repeats_nobody(channel):
    assert xpath(channel, "podcast:person/text()") == ["Hal Host"]
    assert xpath(channel, "podcast:person/@img") == ["https://example.org/hal.jpg"]
    rich = item_titled(channel, "The rich one")
    assert xpath(rich, "podcast:person/text()") == ["Grace Guest"]
    assert xpath(rich, "podcast:person/@role") == ["guest"] and xpath(rich, "podcast:person/@group") == ["cast"]
    assert xpath(item_titled(channel, "Plain"), "podcast:person") == []


def test_an_episode_that_sets_no_v2_field_gets_no_v2_tag(channel):
    plain = item_titled(channel, "Plain")

    assert xpath(plain, "itunes:episodeType/text()") == ["full"]
    assert xpath(plain, "itunes:block | content:encoded | psc:* | podcast:season") == []
    assert [etree.QName(child).localname for child in xpath(plain, "podcast:*")] == ["episode"]


# Channel tags


def test_the_channel_carries_every_v2_tag_of_its_show(channel):
    assert xpath(channel, "itunes:type/text()") == ["serial"]
    assert xpath(channel, "itunes:complete/text()") == ["Yes"]
    assert xpath(channel, "itunes:block/text()") == ["Yes"]
    assert xpath(channel, "itunes:new-feed-url/text()") == ["https://feeds.example.org/rich.xml"]
    assert channel.findtext("copyright") == "© 2026 Rich"
    assert xpath(channel, "podcast:funding/text()") == ["Support us"]
    assert xpath(channel, "podcast:funding/@url") == ["https://example.org/support"]
    assert xpath(channel, "podcast:license/text()") == ["CC-BY-4.0"]
    assert xpath(channel, "podcast:location/@osm") == ["R5400890"]
    assert xpath(channel, "podcast:medium/text()") == ["video"]
    assert xpath(channel, "podcast:updateFrequency/text()") == ["Weekly"]
    assert xpath(channel, "podcast:updateFrequency/@rrule") == ["FREQ=WEEKLY"]
    assert xpath(channel, "podcast:updateFrequency/@complete") == ["true"]
    assert xpath(channel, "podcast:txt[@purpose='verify']/text()") == ["verify-me"]
    assert xpath(channel, "podcast:podroll/podcast:remoteItem/@feedGuid") == [
        "917393e3-1b1e-5cef-ace4-edaa54e1f810",
        "2d00c1b0-c3d7-586d-9853-6f106a360d26",
    ]
    assert xpath(channel, "podcast:podroll/podcast:remoteItem/@feedUrl") == ["https://example.org/other.xml"]
    assert xpath(channel, "podcast:podroll/podcast:remoteItem/@title") == ["Another show"]


def test_a_show_that_sets_no_v2_field_gets_no_v2_tag():
    channel = etree.fromstring(feed(daily_catalog(2), SETTINGS).body).find("channel")

    assert xpath(channel, "itunes:type/text()") == ["episodic"]
    assert [etree.QName(child).localname for child in xpath(channel, "podcast:*")] == ["guid"]
    assert xpath(channel, "itunes:complete | itunes:block | itunes:new-feed-url | copyright") == []


def test_the_default_medium_is_left_unsaid():
    channel = etree.fromstring(feed(catalog_of(rich_show() | {"medium": "podcast"}), SETTINGS).body).find("channel")

    assert xpath(channel, "podcast:medium") == []


def test_each_trailer_is_also_a_channel_trailer_even_past_the_feeds_items():
    newer = episode_document("Newer", "2026-02-01T10:00:00Z", episode_number=2)
    catalog = catalog_of(rich_show(), ("trailer", trailer_episode()), ("newer", newer))

    body = feed(catalog, Settings(site_url=SETTINGS.site_url, feed_max_items=1)).body
    channel = etree.fromstring(body).find("channel")

    assert [item.findtext("title") for item in channel.iter("item")] == ["Newer"]
    (trailer,) = xpath(channel, "podcast:trailer")
    assert trailer.text == "Coming soon"
    assert trailer.get("pubdate") == "Thu, 01 Jan 2026 08:00:00 +0000" and RFC_2822.match(trailer.get("pubdate"))
    assert (trailer.get("url"), trailer.get("length"), trailer.get("type")) == (
        "https://media.example.com/trailer.mp3",
        "1234",
        "audio/mpeg",
    )
    assert trailer.get("season") == "1"


def test_a_long_trailer_title_is_cut_to_the_namespaces_128_characters():
    title = "A trailer with a title " + "far too long " * 12
    catalog = catalog_of(None, ("t", episode_document(title.strip(), episode_type="trailer")))

    (text,) = xpath(etree.fromstring(feed(catalog, SETTINGS).body).find("channel"), "podcast:trailer/text()")

    assert len(text) <= 128 and text.endswith("long…") and title.startswith(text[:-1])


# The namespace's schema


def test_every_podcast_tag_of_the_v2_feed_is_valid_by_the_namespaces_schema(body, channel):
    assert len(xpath(channel, "podcast:* | item/podcast:*")) > 20
    assert schema_errors(body) == []


def test_the_schema_check_rejects_what_the_namespace_does_not_allow(body):
    broken = body.replace(b"<podcast:season>1</podcast:season>", b"<podcast:season>one</podcast:season>")
    broken = broken.replace(b"podcast:medium>", b"podcast:meduim>")  # the opening and the closing tag

    errors = schema_errors(broken)

    assert any("season" in error and "xs:integer" in error for error in errors), errors
    assert any("meduim" in error and "No matching global declaration" in error for error in errors), errors
