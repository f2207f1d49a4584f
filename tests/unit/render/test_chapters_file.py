"""An episode's chapters.json: the podcast namespace's JSON chapters 1.2, checked against that format's
schema (tests/support/schemas), and written or deleted only when the chapters change."""

import json

import jsonschema
import pytest

from podpages import site_paths
from podpages.catalog.changes import EpisodeRemoved
from podpages.catalog.model import PARSED_CHAPTERS_KEPT, Catalog, parsed_chapters
from podpages.catalog.staleness import everything, pages_again, stale
from podpages.contract.source_keys import parse_source_key
from podpages.render.chapters_file import chapters_file
from podpages.render.plans import page_plan
from support.catalogs import SETTINGS, episode_document, example_folder, put_episode
from support.paths import JSON_CHAPTERS_SCHEMA

CHAPTERS = [
    {"start": 0, "title": "Intro"},
    {"start": 61.5, "title": "The release", "url": "https://example.org/notes", "image": "https://example.org/c.jpg"},
    {"start": 200, "title": "Sponsor", "toc": False},
]


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(JSON_CHAPTERS_SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def with_chapters(chapters=CHAPTERS, slug="ep", **fields) -> Catalog:
    return Catalog(show="s").apply(put_episode("s", slug, episode_document(chapters=chapters, **fields)), 1500)


def test_the_schema_refuses_what_the_format_does_not_allow(validator):
    assert not validator.is_valid({"version": "1.2.0", "chapters": [{"title": "no start"}]})
    assert not validator.is_valid({"version": "1.2.0", "chapters": [{"startTime": 1, "image": "x"}]})


def test_every_example_chapters_file_is_json_chapters_1_2(validator):
    written = [
        chapters_file(catalog.show, entry)
        for catalog in example_folder().catalogs.values()
        for entry in catalog.episodes
        if entry.chapters()
    ]

    assert written  # release-radio's episodes have chapters
    for item in written:
        errors = [error.message for error in validator.iter_errors(json.loads(item.body))]
        assert errors == [], item.key


def test_the_file_carries_each_chapter_in_the_formats_names(validator):
    entry = with_chapters().episodes[0]

    item = chapters_file("s", entry)

    assert item.key == "s/ep/chapters.json"
    assert item.content_type == "application/json+chapters"
    assert json.loads(item.body) == {
        "version": "1.2.0",
        "chapters": [
            {"startTime": 0, "title": "Intro"},
            {
                "startTime": 61.5,
                "title": "The release",
                "img": "https://example.org/c.jpg",
                "url": "https://example.org/notes",
            },
            {"startTime": 200, "title": "Sponsor", "toc": False},
        ],
    }
    assert b'"startTime": 0,' in item.body  # whole seconds as integers, as the format's examples write them


def test_a_title_is_carried_as_text_whatever_it_holds():
    entry = with_chapters([{"start": 0, "title": 'Quotes " and </script> and ünïcode'}]).episodes[0]

    assert json.loads(chapters_file("s", entry).body)["chapters"][0]["title"] == 'Quotes " and </script> and ünïcode'


def keys(plan):
    return {item.key for item in plan.puts}, set(plan.deletes)


def test_a_publish_writes_the_file_when_the_chapters_change_and_not_when_only_the_page_does():
    before = with_chapters()
    retitled = before.apply(put_episode("s", "ep", episode_document("Retitled", chapters=CHAPTERS)), 1500)
    rechaptered = before.apply(put_episode("s", "ep", episode_document(chapters=CHAPTERS[:2])), 1500)

    assert stale(Catalog(show="s"), before, 8).chapters == {"ep"}
    assert stale(before, retitled, 8).chapters == set()
    assert keys(page_plan(rechaptered, stale(before, rechaptered, 8), SETTINGS))[0] == {
        "s/ep/index.html",
        "s/ep/chapters.json",
    }


def test_an_episode_that_loses_its_chapters_or_is_removed_loses_its_file():
    before = with_chapters()
    unchaptered = before.apply(put_episode("s", "ep", episode_document()), 1500)
    removed = before.apply(EpisodeRemoved(parse_source_key("episodes/s/ep.json")), 1500)

    assert "s/ep/chapters.json" in keys(page_plan(unchaptered, stale(before, unchaptered, 8), SETTINGS))[1]
    assert "s/ep/chapters.json" in keys(page_plan(removed, stale(before, removed, 8), SETTINGS))[1]


def test_an_episode_without_chapters_never_costs_a_chapters_request():
    before = Catalog(show="s").apply(put_episode("s", "ep", episode_document()), 1500)
    after = before.apply(put_episode("s", "ep", episode_document("Retitled")), 1500)

    plan = page_plan(after, stale(before, after, 8), SETTINGS)

    assert not any(key.endswith("chapters.json") for key in keys(plan)[0] | keys(plan)[1])
    assert not pages_again(after, {"ep"}).chapters


def test_a_from_scratch_render_and_a_rebuild_write_every_chapters_file():
    catalog = with_chapters().apply(put_episode("s", "plain", episode_document("Plain")), 1500)

    assert everything(catalog, 0).chapters == pages_again(catalog, {"ep", "plain"}).chapters == {"ep"}
    assert (
        site_paths.object_key(site_paths.chapters("s", "ep"))
        in keys(page_plan(catalog, everything(catalog, 0), SETTINGS))[0]
    )


def test_a_render_parses_each_episodes_chapters_once_for_its_page_and_its_file():
    # Given a show of episodes with chapters of their own, more of them than parsed chapters are kept
    catalog = Catalog(show="s")
    for number in range(PARSED_CHAPTERS_KEPT + 4):
        chapters = [{"start": 0, "title": f"Intro {number}"}, {"start": 60, "title": "More"}]
        catalog = catalog.apply(put_episode("s", f"ep-{number}", episode_document(chapters=chapters)), 1500)
    parsed_chapters.cache_clear()

    # When its pages and chapters files are planned
    page_plan(catalog, everything(catalog, 0), SETTINGS)

    # Then each episode's chapters were parsed once, and read from there by the second of the two
    parsed = parsed_chapters.cache_info()
    assert (parsed.misses, parsed.hits) == (len(catalog.episodes), len(catalog.episodes))
