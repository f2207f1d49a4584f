"""Rebuild requests as queue messages: what the CLI and the custom resource send is what the render
function reads back, anything else on the queue is not a rebuild, and a malformed request names its
fields. Chunks cover each episode of a show exactly once."""

import json
import re

import pytest

from podpages.cli.source_folder import read_source_folder
from podpages.errors import ContractError
from podpages.rebuild import request as rebuild_request
from podpages.rebuild.request import RebuildRequest, rebuild_requests
from podpages.settings import Settings
from podpages.storage.source_bucket import SourceBucket
from support.catalogs import commit_catalog, daily_catalog, stored
from support.paths import EXAMPLES


@pytest.mark.parametrize(
    "request_",
    [
        RebuildRequest(),
        RebuildRequest("pytorch", ("a", "b-2")),
        RebuildRequest("pytorch", listings=True),
        RebuildRequest("pytorch", ("a",), listings=True),
    ],
)
def test_a_request_reads_back_as_itself(request_):
    assert rebuild_request.rebuild_request(request_.message()) == request_


@pytest.mark.parametrize("body", ["not json", "[1]", '{"Records": []}', '{"Event": "s3:TestEvent"}'])
def test_other_messages_are_not_rebuilds(body):
    assert rebuild_request.rebuild_request(body) is None


@pytest.mark.parametrize(
    ("request_", "fields"),
    [
        ("pytorch", ["rebuild"]),
        ({"show": "Py Torch"}, ["rebuild.show"]),
        ({"show": "pytorch\n"}, ["rebuild.show"]),
        ({"show": "pytorch", "episodes": ["a\n"]}, ["rebuild.episodes.0"]),
        ({"show": "pytorch", "episodes": "a"}, ["rebuild.episodes"]),
        ({"show": "pytorch", "episodes": ["a", "../b", 3]}, ["rebuild.episodes.1", "rebuild.episodes.2"]),
        ({"show": "pytorch", "listings": "yes"}, ["rebuild.listings"]),
        ({"show": "pytorch", "pages": 3}, ["rebuild.pages"]),
        ({"site": True, "show": "pytorch"}, ["rebuild"]),
        ({"site": True, "listings": True}, ["rebuild"]),
        ({}, ["rebuild"]),
    ],
)
def test_a_malformed_request_names_its_fields(request_, fields):
    with pytest.raises(ContractError) as raised:
        rebuild_request.rebuild_request(json.dumps({"rebuild": request_}))

    assert [problem.field for problem in raised.value.problems] == fields


@pytest.fixture(params=["index and frozen pages", "one object"])
def published(source, request) -> SourceBucket:
    """The source bucket with the examples' catalogs: stored as this podpages stores them, with a feed of
    3 (frozen pages of 3), or in one object each, as an earlier podpages stored them."""
    settings = Settings("https://podcasts.example.com", feed_max_items=3)
    for catalog in [*read_source_folder(EXAMPLES, settings).catalogs.values(), daily_catalog(47)]:
        if request.param == "one object":
            source.write_catalog(*stored(catalog), None)
        else:
            commit_catalog(source, catalog, settings)
    assert any("/page-" in key for key in keys(source)) == (request.param != "one object")
    return source


def keys(source) -> list[str]:
    listed = source.client.list_objects_v2(Bucket=source.name, Prefix="catalog/")
    return [item["Key"] for item in listed.get("Contents", [])]


def test_requests_cover_every_episode_once_in_bounded_chunks(published, monkeypatch):
    monkeypatch.setattr(rebuild_request, "EPISODES_PER_REQUEST", 5)

    requests = list(rebuild_requests(published))

    pytorch = [request for request in requests if request.show == "pytorch"]
    assert [len(request.episodes) for request in pytorch] == [5, 5, 5, 1, 0]
    assert [request.listings for request in pytorch] == [False] * 4 + [True]
    examples = read_source_folder(EXAMPLES, Settings("https://podcasts.example.com")).catalogs["pytorch"]
    assert [slug for request in pytorch for slug in request.episodes] == [entry.slug for entry in examples.episodes]
    assert len(examples.episodes) == 16
    assert requests[-1] == RebuildRequest()  # everything: the site's own files too, last
    daily = [slug for request in requests if request.show == "daily" for slug in request.episodes]
    assert daily == [f"e{number:02d}" for number in range(1, 48)]


def test_named_shows_leave_the_site_files_alone(published):
    requests = list(rebuild_requests(published, ["kernel-notes"]))

    assert {request.show for request in requests} == {"kernel-notes"}


@pytest.mark.parametrize("show", ["no-such-show", "../catalog/pytorch", "pytorch\n"])
def test_a_show_that_is_not_published_is_an_error_that_names_it(published, show):
    with pytest.raises(ValueError, match=re.escape(f"show {show!r}")):
        list(rebuild_requests(published, [show]))
