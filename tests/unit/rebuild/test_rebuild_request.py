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


@pytest.fixture
def published(source) -> SourceBucket:
    """The source bucket with the examples' catalogs."""
    for catalog in read_source_folder(EXAMPLES, Settings("https://podcasts.example.com")).catalogs.values():
        source.write_catalog(catalog, None)
    return source


def test_requests_cover_every_episode_once_in_bounded_chunks(published, monkeypatch):
    monkeypatch.setattr(rebuild_request, "EPISODES_PER_REQUEST", 5)

    requests = list(rebuild_requests(published))

    pytorch = [request for request in requests if request.show == "pytorch"]
    assert [len(request.episodes) for request in pytorch] == [5, 5, 5, 1, 0]
    assert [request.listings for request in pytorch] == [False] * 4 + [True]
    assert len({slug for request in pytorch for slug in request.episodes}) == 16
    assert requests[-1] == RebuildRequest()  # everything: the site's own files too, last


def test_named_shows_leave_the_site_files_alone(published):
    requests = list(rebuild_requests(published, ["kernel-notes"]))

    assert {request.show for request in requests} == {"kernel-notes"}


@pytest.mark.parametrize("show", ["no-such-show", "../catalog/pytorch", "pytorch\n"])
def test_a_show_that_is_not_published_is_an_error_that_names_it(published, show):
    with pytest.raises(ValueError, match=re.escape(f"show {show!r}")):
        list(rebuild_requests(published, [show]))
