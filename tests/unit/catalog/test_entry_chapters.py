"""A catalog entry keeps its episode's chapters apart, as JSON text parsed only while a page or a feed
shows them: at the contract's maximum of 500 an entry parsed whole took five times the memory. An
entry stored before, with the chapters in its episode, reads the same as one made now."""

import json

import pytest

from podpages.catalog.model import CatalogEntry
from podpages.contract.documents import parse_episode
from support.catalogs import episode_document

CHAPTERS = [
    {"start": 0, "title": "Cold open"},
    {"start": 12.5, "title": "Sponsor", "toc": False, "url": "https://sponsor.example.com/"},
    {"start": 90, "title": "Main topic", "image": "https://media.example.com/main.png"},
]


def entry_of(document: dict) -> CatalogEntry:
    return CatalogEntry.of("show", "ep", parse_episode(json.dumps(document).encode()), "01", 1500)


def test_an_entry_keeps_its_chapters_as_text_apart_from_its_episode_and_parses_them_on_each_call():
    upload = parse_episode(json.dumps(episode_document(chapters=CHAPTERS)).encode())
    entry = CatalogEntry.of("show", "ep", upload, "01", 1500)

    assert entry.episode.chapters is None and isinstance(entry.chapters_json, str)
    assert entry.chapters() == upload.chapters
    assert entry.chapters() is not entry.chapters()  # nothing parsed is held between calls
    assert "chapters" not in json.loads(entry.model_dump_json())["episode"]


def test_an_entry_without_chapters_has_none_and_stores_no_chapters_field():
    entry = entry_of(episode_document())

    assert entry.chapters() == () and entry.chapters_json is None
    assert "chapters_json" not in json.loads(entry.model_dump_json())


def test_an_entry_stored_with_its_chapters_in_its_episode_reads_as_one_made_now():
    made = entry_of(episode_document(chapters=CHAPTERS))
    stored = json.loads(made.model_dump_json())
    stored["episode"]["chapters"] = json.loads(stored.pop("chapters_json"))  # as entries were stored before

    read = CatalogEntry.model_validate_json(json.dumps(stored))

    assert read == made and read.episode.chapters is None
    assert read.model_dump_json() == made.model_dump_json()


@pytest.mark.parametrize(
    ("change", "same"),
    [
        ({}, True),
        ({"chapters": CHAPTERS[:2]}, False),
        ({"chapters": None}, False),
        ({"title": "Another title"}, False),
        ({"transcript": "Words.", "notes": "More words."}, True),  # published from what they leave
    ],
)
def test_an_entry_is_made_from_an_upload_only_if_it_holds_what_the_upload_says(change, same):
    entry = entry_of(episode_document(chapters=CHAPTERS))
    changed = episode_document(chapters=CHAPTERS) | change
    document = {key: value for key, value in changed.items() if value is not None}

    assert entry.made_from(parse_episode(json.dumps(document).encode())) is same
