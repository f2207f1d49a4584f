"""A catalog entry keeps its episode's chapters and its other lists (persons, soundbites, enclosures,
keywords) apart, as JSON text parsed only while a page or a feed shows them: at the contract's maxima
an entry parsed whole took seven times the memory. An entry stored before, with them in its episode,
reads the same as one made now."""

import json

import pytest

from podpages.catalog.model import PARSED_CHAPTERS_KEPT, CatalogEntry
from podpages.contract.documents import parse_episode
from support.catalogs import episode_document

CHAPTERS = [
    {"start": 0, "title": "Cold open"},
    {"start": 12.5, "title": "Sponsor", "toc": False, "url": "https://sponsor.example.com/"},
    {"start": 90, "title": "Main topic", "image": "https://media.example.com/main.png"},
]


LISTS = {
    "keywords": ["compilers", "caches"],
    "persons": [{"name": "Ada Okafor", "role": "host"}, {"name": "Lin Park", "role": "guest"}],
    "soundbites": [{"start": 30, "duration": 15, "title": "The key idea"}],
    "alternate_enclosures": [{"url": "https://media.example.com/ep.opus", "type": "audio/opus", "length": 900}],
}


def entry_of(document: dict) -> CatalogEntry:
    return CatalogEntry.of("show", "ep", parse_episode(json.dumps(document).encode()), "01", 1500)


def test_an_entry_keeps_its_chapters_as_text_apart_from_its_episode_and_parses_them_when_asked():
    upload = parse_episode(json.dumps(episode_document(chapters=CHAPTERS)).encode())
    entry = CatalogEntry.of("show", "ep", upload, "01", 1500)

    assert entry.episode.chapters is None and isinstance(entry.chapters_json, str)
    assert entry.chapters() == upload.chapters
    assert "chapters" not in json.loads(entry.model_dump_json())["episode"]


def test_the_chapters_parsed_last_are_kept_and_no_more_than_a_few():
    # Given an entry whose chapters were just parsed
    entries = [entry_of(episode_document(chapters=[{"start": 0, "title": f"Part {n}"}])) for n in range(9)]
    first = entries[0].chapters()

    # Then asked again at once, they are not parsed again
    assert entries[0].chapters() is first

    # But once as many other entries' chapters as are kept were parsed, they are parsed anew
    for entry in entries[1 : PARSED_CHAPTERS_KEPT + 1]:
        entry.chapters()
    assert entries[0].chapters() is not first and entries[0].chapters() == first


def test_an_entry_without_chapters_has_none_and_stores_no_chapters_field():
    entry = entry_of(episode_document())

    assert entry.chapters() == () and entry.chapters_json is None
    assert "chapters_json" not in json.loads(entry.model_dump_json())


@pytest.mark.parametrize("fields", [{"chapters": CHAPTERS}, LISTS, {"chapters": CHAPTERS, **LISTS}])
def test_an_entry_stored_with_its_lists_in_its_episode_reads_as_one_made_now(fields):
    made = entry_of(episode_document(**fields))
    stored = json.loads(made.model_dump_json())
    # As entries were stored before: the episode's lists in it
    stored["episode"] |= json.loads(stored.pop("lists_json", "{}"))
    if "chapters_json" in stored:
        stored["episode"]["chapters"] = json.loads(stored.pop("chapters_json"))

    read = CatalogEntry.model_validate_json(json.dumps(stored))

    assert read == made and read.episode.chapters is None and read.episode.persons is None
    assert read.model_dump_json() == made.model_dump_json()


@pytest.mark.parametrize(
    ("fields", "change", "same"),
    [
        ({"chapters": CHAPTERS}, {}, True),
        ({"chapters": CHAPTERS}, {"chapters": CHAPTERS[:2]}, False),
        ({"chapters": CHAPTERS}, {"chapters": None}, False),
        ({"chapters": CHAPTERS}, {"title": "Another title"}, False),
        (
            {"chapters": CHAPTERS},
            {"transcript": "Words.", "notes": "More words."},
            True,
        ),  # published from what they leave
        (LISTS, {}, True),
        (LISTS, {"persons": LISTS["persons"][:1]}, False),
        (LISTS, {"keywords": None}, False),
        (LISTS, {"alternate_enclosures": None, "soundbites": None}, False),
    ],
)
def test_an_entry_is_made_from_an_upload_only_if_it_holds_what_the_upload_says(fields, change, same):
    entry = entry_of(episode_document(**fields))
    changed = episode_document(**fields) | change
    document = {key: value for key, value in changed.items() if value is not None}

    assert entry.made_from(parse_episode(json.dumps(document).encode())) is same


def test_an_entry_keeps_its_episodes_other_lists_as_text_and_gives_them_back_in_full():
    upload = parse_episode(json.dumps(episode_document(**LISTS)).encode())
    entry = CatalogEntry.of("show", "ep", upload, "01", 1500)

    assert entry.episode.keywords == () and entry.episode.persons is None and isinstance(entry.lists_json, str)
    assert entry.episode.soundbites is None and entry.episode.alternate_enclosures is None
    in_full = entry.episode_in_full()
    assert in_full == CatalogEntry.kept(upload).model_copy(update={name: getattr(upload, name) for name in LISTS})
    assert in_full.persons == upload.persons and in_full.keywords == upload.keywords
    assert entry.episode_in_full() is not in_full  # nothing parsed is held between calls
    assert entry_of(episode_document()).lists_json is None
    assert entry_of(episode_document()).episode_in_full() == entry_of(episode_document()).episode
