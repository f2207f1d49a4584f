"""While a publish holds a catalog, its entries' long texts (show notes, chapters, lists, the
transcript's excerpt) are set aside in a temporary file and read back by whatever prints them: the
entries, the pages and the index they make are the same as with the texts in memory."""

import gc
import json
import os
import random

import pytest

from podpages.catalog.layout import join, read_index, split
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.catalog.spooled_text import (
    WINDOW_BYTES,
    SpooledParagraphs,
    SpooledText,
    TextSpool,
    paragraphs_of,
    text_of,
)
from podpages.contract.documents import parse_episode
from podpages.render.feed import feed
from podpages.render.pages import episode_page
from podpages.settings import Settings
from support.catalogs import SITE_URL, episode_document

LONG = {
    "notes": "Show notes with *emphasis*, an ü and an emoji 🎙.",
    "chapters": [{"start": 0, "title": "Cold open 🎬"}, {"start": 90, "title": "Main topic"}],
    "keywords": ["caches", "ümlauts"],
    "persons": [{"name": "Ada Okafor", "role": "host"}],
    "transcript": "Ada: Welcome back, ü and 🎙.\n\nPriya: Today, caches.",
}
SETTINGS = Settings(site_url=SITE_URL)


def entry(slug: str, **fields) -> CatalogEntry:
    document = episode_document(slug, "2026-03-01T10:00:00Z", **fields)
    return CatalogEntry.of("show", slug, parse_episode(json.dumps(document).encode()), None, 1500)


def test_a_text_set_aside_reads_back_with_its_length_in_characters():
    spool = TextSpool()
    texts = ["", "plain", "ü and 🎙 take more bytes than characters", "x" * 100_000]

    spooled = [spool.put(text) for text in texts]

    assert [str(text) for text in spooled] == texts
    assert [len(text) for text in spooled] == [len(text) for text in texts]
    assert not spooled[0] and spooled[1]


def test_a_text_set_aside_equals_the_same_characters_in_memory_or_set_aside_elsewhere():
    first, second = TextSpool(), TextSpool()
    text = first.put("chapters")

    assert text == "chapters" and "chapters" == text and text == second.put("chapters")  # noqa: SIM300 - both sides
    assert text != "chapterz" and text != first.put("chapter") and text != None  # noqa: E711
    assert hash(text) == hash("chapters")
    assert text_of(text) == "chapters" and text_of("notes") == "notes" and text_of(None) is None


def test_texts_put_after_one_is_read_back_read_back_too():
    spool = TextSpool()
    first = spool.put("first")
    assert str(first) == "first"

    later = [spool.put(f"text {number}") for number in range(3)]

    assert [str(text) for text in later] == ["text 0", "text 1", "text 2"] and str(first) == "first"


@pytest.mark.parametrize("order", ["as put", "newest first", "shuffled"])
def test_many_texts_read_back_in_any_order_across_the_windows_they_are_read_in(order):
    # Given texts of every size, over many of the windows the spool reads at once, one longer than a window
    spool = TextSpool()
    texts = [f"{number} ü 🎙 " * (number % 97) for number in range(3_000)] + ["long " * WINDOW_BYTES, "", "last"]
    spooled = [spool.put(text) for text in texts]
    places = list(range(len(texts)))
    if order == "newest first":
        places.reverse()
    elif order == "shuffled":
        random.Random(7).shuffle(places)

    # Then each reads back as it was put, whichever is read first
    assert [str(spooled[place]) for place in places] == [texts[place] for place in places]


def test_texts_read_back_in_the_order_they_were_put_take_a_read_of_the_file_a_window_at_a_time(monkeypatch):
    # Given 2,000 excerpts' worth of texts set aside, as a removal's pages are read
    spool = TextSpool()
    spooled = [spool.put(f"paragraph {number} " * 90) for number in range(2_000)]  # about 1.7 KB each
    reads = []
    monkeypatch.setattr(os, "pread", lambda *args, pread=os.pread: reads.append(args) or pread(*args))

    # When they are read back in the same order, as the pages are written again
    assert all(str(text).startswith(f"paragraph {number} ") for number, text in enumerate(spooled))

    # Then the file is read once a window, not once a text: each read lets another thread take the interpreter
    assert 0 < len(reads) <= 2 * sum(len(str(text).encode()) for text in spooled) // WINDOW_BYTES + 1


def test_paragraphs_set_aside_read_back_and_equal_the_same_paragraphs_in_memory_or_set_aside_elsewhere():
    paragraphs = ("Ada: Welcome, ü.", "Priya: 🎙 Hi.")
    spooled = SpooledParagraphs(TextSpool(), paragraphs)

    assert tuple(spooled) == paragraphs and paragraphs_of(spooled) == paragraphs and paragraphs_of(()) == ()
    assert spooled == paragraphs and paragraphs == spooled and hash(spooled) == hash(paragraphs)
    assert spooled == SpooledParagraphs(TextSpool(), paragraphs)
    assert spooled != paragraphs[:1] and spooled != list(paragraphs)


def test_a_spool_opens_no_file_until_it_is_given_a_text():
    spool = TextSpool()

    assert spool._file is None
    spool.put("notes")
    assert spool._file is not None


def test_a_spools_file_is_closed_once_nothing_refers_to_it():
    # Given a spool's text, and the file descriptor behind it
    spool = TextSpool()
    text = spool.put("notes")
    assert spool._file is not None
    descriptor = spool._file.fileno()
    os.fstat(descriptor)

    # When the spool is dropped, its text still reads
    del spool
    assert str(text) == "notes"

    # Then the file is closed once the text goes too
    del text
    gc.collect()
    with pytest.raises(OSError):
        os.fstat(descriptor)


def test_an_entry_read_with_a_spool_sets_its_long_texts_aside_and_stays_the_same_entry():
    made = entry("ep", **LONG)
    stored = made.model_dump_json()

    read = CatalogEntry.model_validate_json(stored, context=TextSpool().context_with_paragraphs)

    assert all(isinstance(text, SpooledText) for text in (read.notes_html, read.chapters_json, read.lists_json))
    assert isinstance(read.excerpt, SpooledParagraphs) and read.excerpt == made.excerpt != ()
    assert (
        read == made
        and read.content() == made.content()
        and read.made_from(parse_episode(json.dumps(episode_document("ep", "2026-03-01T10:00:00Z", **LONG)).encode()))
    )
    assert read.model_dump_json() == stored
    assert read.chapters() == made.chapters() and read.episode_in_full() == made.episode_in_full()
    assert read.notes() == made.notes() and "<em>emphasis</em>" in (read.notes() or "")


def test_an_entry_read_with_a_spool_for_long_texts_alone_keeps_its_excerpt_in_memory():
    read = CatalogEntry.model_validate_json(entry("ep", **LONG).model_dump_json(), context=TextSpool().context)

    assert isinstance(read.notes_html, SpooledText) and isinstance(read.excerpt, tuple) and read.excerpt


def test_an_entry_read_without_a_spool_keeps_its_texts_in_memory():
    read = CatalogEntry.model_validate_json(entry("ep", **LONG).model_dump_json())

    assert all(isinstance(text, str) for text in (read.notes_html, read.chapters_json, read.lists_json))
    assert isinstance(read.excerpt, tuple)


def test_an_index_read_with_a_spool_writes_the_same_lines_and_renders_the_same_feed_and_pages():
    # Given a show of 8 episodes with long texts, stored as an index
    catalog = Catalog(show="show", episodes=tuple(entry(f"e{number}", **LONG) for number in range(8)))
    lines = list(split(catalog, SETTINGS.feed_max_items).index())

    # When it is read with a spool
    index = read_index(b"".join(lines).splitlines(), TextSpool())
    read = join(index, {})

    # Then its head's texts are set aside, and it makes the same lines, feed and pages
    assert all(isinstance(episode.chapters_json, SpooledText) for episode in read.episodes)
    assert all(isinstance(episode.excerpt, tuple) and episode.excerpt for episode in read.episodes)
    assert list(split(read, SETTINGS.feed_max_items).index()) == lines
    assert feed(read, SETTINGS).body == feed(catalog, SETTINGS).body
    assert episode_page(read, "e3", SETTINGS).body == episode_page(catalog, "e3", SETTINGS).body
