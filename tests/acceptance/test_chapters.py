"""Every episode's chapters, fetched over HTTP from the local stack as a podcast app fetches them: a
chapters.json valid against the JSON chapters 1.2 schema, served with its media type, saying what the
episode's upload says, and readable by apps in a browser, as transcripts are."""

import json

import jsonschema

from podpages import site_paths
from support.paths import JSON_CHAPTERS_SCHEMA


def test_each_episode_with_chapters_serves_them_as_json_chapters(site):
    validator = jsonschema.Draft202012Validator(json.loads(JSON_CHAPTERS_SCHEMA.read_text()))
    chaptered = [(catalog.show, entry) for catalog in site.catalogs for entry in catalog.episodes if entry.chapters()]
    assert chaptered, "the catalogue has no episode with chapters"

    for show, entry in chaptered:
        status, headers, body = site.get(site_paths.chapters(show, entry.slug))

        assert status == 200 and headers["Content-Type"] == "application/json+chapters", entry.slug
        document = json.loads(body)
        assert [error.message for error in validator.iter_errors(document)] == [], entry.slug
        assert [(chapter["startTime"], chapter["title"]) for chapter in document["chapters"]] == [
            (chapter.start, chapter.title) for chapter in entry.chapters()
        ]


def test_an_episode_without_chapters_has_no_chapters_file(site):
    show, entry = next(
        (catalog.show, entry) for catalog in site.catalogs for entry in catalog.episodes if not entry.chapters()
    )

    assert site.get(site_paths.chapters(show, entry.slug))[0] == 404


def test_apps_in_a_browser_may_read_chapters_and_transcripts_from_another_origin(site):
    chaptered = next(
        (catalog.show, entry) for catalog in site.catalogs for entry in catalog.episodes if entry.chapters()
    )
    captioned = next(
        (catalog.show, entry)
        for catalog in site.catalogs
        for entry in catalog.episodes
        if catalog.companion(entry.slug)
    )
    for path in (
        site_paths.chapters(chaptered[0], chaptered[1].slug),
        site_paths.transcript_file(captioned[0], captioned[1].slug, "vtt"),
    ):
        status, headers, _body = site.get(path, {"Origin": "https://app.example.net"})
        assert status == 200 and headers["Access-Control-Allow-Origin"] == "*", path
        assert "Access-Control-Allow-Origin" not in site.get(path)[1]  # as CloudFront: only when asked across origins
