"""The full transcript as a page: its heading, a paragraph to each speaker's turn with an anchor and
a link into the audio, the speaker marked apart from the words, everything escaped, the way back to
the episode, and a three-hour transcript within the page budget."""

import pytest
from lxml import html

from podpages.catalog.changes import TranscriptPut
from podpages.catalog.model import Catalog
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render.pages import episode_page
from podpages.render.transcript_page import moment_anchor, transcript_page
from support.catalogs import SETTINGS, episode_document, put_episode, put_show, show_document

SHOW, SLUG = "radio", "ep"
AUDIO = "https://media.example.com/radio/ep.mp3?source=feed&id=7"
HOSTILE = '</p><script>alert(1)</script><img src=x onerror="alert(2)"> & &amp; -->'
MAX_TRANSCRIPT_PAGE_BYTES = 1_000_000
CUES = (
    Cue(0, 2_000, "Welcome to the show.", "Ada Okafor"),
    Cue(2_000, 3_000, "Glad to be here."),  # no voice tag: Ada goes on
    Cue(3_000, 3_500, "Short.", "Tom"),
    Cue(3_500, 4_000, "Right back.", "Ada Okafor"),  # a second paragraph starting in second 3
    Cue(65_250, 70_000, HOSTILE, HOSTILE),
    Cue(3_723_004, 3_730_000, "An hour in.", "Tom"),
)


def catalog_with(title: str = "First <light>", audio_url: str = AUDIO) -> Catalog:
    audio = {"url": audio_url, "type": "audio/mpeg", "length": 1000}
    catalog = Catalog(show=SHOW).apply(put_show(SHOW, show_document("Release & Radio")), 1500)
    return catalog.apply(put_episode(SHOW, SLUG, episode_document(title, audio=audio)), 1500)


def rendered(cues: tuple[Cue, ...] = CUES, catalog: Catalog | None = None):
    catalog = catalog or catalog_with()
    return transcript_page(catalog, catalog.entry(SLUG), cues, SETTINGS)


@pytest.fixture(scope="module")
def page():
    return rendered()


@pytest.fixture(scope="module")
def tree(page):
    return html.fromstring(page.body)


def passages(tree):
    return tree.xpath("//main//p[@id]")


def test_the_page_is_served_from_the_transcript_address_as_html(page):
    assert page.key == f"{SHOW}/{SLUG}/transcript/index.html"
    assert page.content_type == "text/html; charset=utf-8"


def test_the_heading_names_the_show_the_episode_and_the_transcript(tree):
    assert tree.xpath("//h1/text()") == ["Release & Radio: First <light> — transcript"]
    assert tree.xpath("//title/text()") == ["Release & Radio: First <light> — transcript"]


def test_headings_do_not_skip_a_level(tree):
    levels = [int(heading.tag[1]) for heading in tree.xpath("//h1|//h2|//h3|//h4|//h5|//h6")]

    assert levels[0] == 1
    assert all(later - earlier <= 1 for earlier, later in zip(levels, levels[1:], strict=False))


def test_one_paragraph_to_each_speaker_turn_with_an_id_from_its_start(tree):
    assert [p.get("id") for p in passages(tree)] == ["t0s", "t3s", "t3s-2", "t1m05s", "t1h02m03s"]


@pytest.mark.parametrize(
    ("start_ms", "anchor"),
    [(0, "t0s"), (45_999, "t45s"), (65_250, "t1m05s"), (3_600_000, "t1h00m00s"), (3_723_004, "t1h02m03s")],
)
def test_an_anchor_reads_as_the_whole_seconds_of_its_start(start_ms, anchor):
    assert moment_anchor(start_ms) == anchor


def test_ids_stay_unique_when_many_paragraphs_start_in_one_second():
    cues = tuple(Cue(1_000 + n, 1_001 + n, f"word {n}", f"Speaker {n % 2}") for n in range(4))
    tree = html.fromstring(rendered(cues).body)

    assert [p.get("id") for p in passages(tree)] == ["t1s", "t1s-2", "t1s-3", "t1s-4"]


def test_each_paragraph_links_its_time_into_the_audio(tree):
    links = tree.xpath("//main//p[@id]/a[1]")
    times = [link.find("time") for link in links]

    assert [link.get("href") for link in links] == [
        f"{AUDIO}#t=0",
        f"{AUDIO}#t=3",
        f"{AUDIO}#t=3.5",
        f"{AUDIO}#t=65.25",
        f"{AUDIO}#t=3723.004",
    ]
    assert [time.get("datetime") for time in times] == ["PT0S", "PT3S", "PT3.5S", "PT65.25S", "PT3723.004S"]
    # past an hour, every clock shows hours, so that they line up
    assert [time.text for time in times] == ["0:00:00", "0:00:03", "0:00:03", "0:01:05", "1:02:03"]


def test_a_transcript_under_an_hour_shows_minutes_and_seconds():
    tree = html.fromstring(rendered(CUES[:5]).body)

    assert [time.text for time in tree.xpath("//main//p[@id]//time")] == ["0:00", "0:03", "0:03", "1:05"]


def test_the_speaker_is_marked_apart_from_the_words(tree):
    first = passages(tree)[0]

    assert first.xpath("b/text()") == ["Ada Okafor"]
    assert " ".join(first.text_content().split()) == "0:00:00 Ada Okafor: Welcome to the show. Glad to be here."


def test_paragraphs_without_speakers_have_no_speaker_markup():
    cues = (Cue(0, 1_000, "Alone."), Cue(61_000, 62_000, "A minute later."))
    tree = html.fromstring(rendered(cues).body)

    assert [p.xpath("b") for p in passages(tree)] == [[], []]
    assert [" ".join(p.text_content().split()) for p in passages(tree)] == ["0:00 Alone.", "1:01 A minute later."]


def test_hostile_speakers_and_words_stay_text(page, tree):
    hostile = passages(tree)[3]

    assert hostile.xpath("b/text()") == [HOSTILE]
    assert hostile.text_content().endswith(f"{HOSTILE}: {HOSTILE}")
    assert tree.xpath("//script|//img") == []
    assert b"<script>" not in page.body


def test_the_page_links_back_to_the_episode_and_to_the_other_formats(tree):
    episode = f"{SETTINGS.site_url}/{SHOW}/{SLUG}/"
    hrefs = tree.xpath("//main//p[not(@id)]//a/@href")

    assert hrefs == [episode] + [f"{episode}transcript.{extension}" for extension in ("vtt", "srt", "json", "txt")]
    assert tree.xpath("//main//a[@href=$episode]/text()", episode=episode) == ["First <light>: the episode page"]
    assert episode in tree.xpath("//footer//a/@href")


def test_the_head_describes_the_transcript_page_itself(tree):
    url = f"{SETTINGS.site_url}/{SHOW}/{SLUG}/transcript/"

    assert tree.xpath("//link[@rel='canonical']/@href") == [url]
    assert tree.xpath("//meta[@property='og:url']/@content") == [url]
    assert tree.xpath("//meta[@property='og:type']/@content") == ["article"]
    assert tree.xpath("//meta[@name='description']/@content") == [
        "Full transcript of First <light>, an episode of Release & Radio."
    ]
    assert tree.xpath("//link[@rel='alternate']/@href") == [f"{SETTINGS.site_url}/{SHOW}/feed.xml"]


def three_hour_transcript() -> tuple[Cue, ...]:
    """3,600 cues of 3 s and 15 words, with three speakers taking turns every few cues."""
    speakers = ("Ada Okafor", "Priya Natarajan", "Tom Reyes")
    words = ("we", "shipped", "the", "new", "release", "today", "and", "the", "tests", "now", "run", "twice")
    words += ("as", "fast", "on", "every", "platform")
    cues = []
    for n in range(3_600):
        text = " ".join(words[(n + i) % len(words)] for i in range(15)).capitalize() + "."
        cues.append(Cue(n * 3_000, n * 3_000 + 3_000, text, speakers[(n // 3) % 3]))
    return tuple(cues)


def test_a_three_hour_transcript_stays_within_the_page_budget():
    long_audio = "https://tracking.example.net/redirect/a1b2c3/media.example.com/radio/ep.mp3?source=feed&id=7"
    page = rendered(three_hour_transcript(), catalog_with(audio_url=long_audio))
    tree = html.fromstring(page.body)

    assert len(passages(tree)) == 1_200
    assert len(page.body) < MAX_TRANSCRIPT_PAGE_BYTES, len(page.body)


def test_the_episode_page_takes_its_excerpt_from_the_companion_and_links_its_page():
    catalog = catalog_with().apply(put_episode(SHOW, SLUG, episode_document("First", transcript="JSON words.")), 1500)
    with_companion = catalog.apply(TranscriptPut(parse_source_key(f"episodes/{SHOW}/{SLUG}.vtt"), CUES[:4]), 1500)

    before = html.fromstring(episode_page(catalog, SLUG, SETTINGS).body)
    after = html.fromstring(episode_page(with_companion, SLUG, SETTINGS).body)

    assert before.xpath("//section[@aria-labelledby='excerpt']/p[not(@class)]/text()") == ["JSON words."]
    assert after.xpath("//section[@aria-labelledby='excerpt']/p[not(@class)]/text()") == [
        "Ada Okafor: Welcome to the show. Glad to be here.",
        "Tom: Short.",
        "Ada Okafor: Right back.",
    ]
    assert before.xpath("//a[starts-with(., 'Full transcript')]/@href") == [
        f"{SETTINGS.site_url}/{SHOW}/{SLUG}/transcript.txt"
    ]
    assert after.xpath("//a[starts-with(., 'Full transcript')]/@href") == [
        f"{SETTINGS.site_url}/{SHOW}/{SLUG}/transcript/"
    ]
