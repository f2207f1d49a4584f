"""Reading a nearby request: slugs, limit, format and Accept, every problem named by its field,
and a strong ETag that follows the response's bytes."""

import pytest

from podpages.errors import InvalidRequest
from podpages.nearby.request import MAX_LIMIT, NearbyRequest

SHOW, EPISODE = "pytorch", "backend-flexibility-revolution"


def parse(query=None, accept=None, show=SHOW, episode=EPISODE, default_limit=8) -> NearbyRequest:
    return NearbyRequest.parse(show, episode, query or {}, accept, default_limit)


def problems(**options) -> dict[str, str]:
    with pytest.raises(InvalidRequest) as raised:
        parse(**options)
    return {problem.field: problem.message for problem in raised.value.problems}


def test_the_limit_defaults_to_the_nearby_count():
    assert parse(default_limit=8).limit == 8


@pytest.mark.parametrize("limit", ["1", "8", str(MAX_LIMIT)])
def test_a_limit_from_1_to_50_is_taken(limit):
    assert parse({"limit": limit}).limit == int(limit)


@pytest.mark.parametrize(
    "limit",
    ["0", str(MAX_LIMIT + 1), "-1", "+5", "2.5", "eight", "", "٣", "1e1", "050", "9" * 4301],
    ids=lambda limit: limit if len(limit) < 10 else f"{len(limit)} digits",
)
def test_any_other_limit_is_a_problem_with_limit(limit):
    assert problems(query={"limit": limit}) == {"limit": "must be a whole number from 1 to 50"}


@pytest.mark.parametrize(
    "slug", ["Upper", "with space", "-leading", "trailing-", "a_b", "%2e%2e", "x" * 81, "", "ep\n", "ep\r\n"]
)
def test_a_malformed_show_or_episode_slug_is_named(slug):
    assert set(problems(show=slug)) == {"show"}
    assert set(problems(episode=slug)) == {"episode"}


def test_every_problem_is_named_at_once():
    found = problems(show="Bad", episode="Worse", query={"limit": "0", "format": "xml"})

    assert set(found) == {"show", "episode", "limit", "format"}
    assert "'Bad'" in found["show"] and found["format"] == "must be one of json, html"


@pytest.mark.parametrize(
    ("query", "accept", "expected"),
    [
        ({}, None, "json"),
        ({}, "*/*", "json"),
        ({}, "application/json", "json"),
        ({}, "text/html", "html"),
        ({}, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "html"),
        ({}, "application/json, text/html;q=0.5", "json"),
        ({}, "text/html;q=0.9, application/json;q=0.4", "html"),
        ({}, "TEXT/HTML", "html"),
        ({}, "text/html;q=oops", "json"),
        ({"format": "json"}, "text/html", "json"),
        ({"format": "html"}, "application/json", "html"),
    ],
)
def test_the_format_comes_from_the_query_then_from_accept(query, accept, expected):
    assert parse(query, accept).format == expected


def test_the_etag_is_strong_and_follows_the_body_and_its_format():
    request = parse({"limit": "3"})
    etag = request.etag('{"items": []}')

    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    # what decides the bytes decides the ETag: another request for the same bytes shares it
    assert etag == parse({"limit": "4"}, episode="another").etag('{"items": []}')
    others = {
        request.etag('{"items": [1]}'),
        parse({"limit": "3", "format": "html"}).etag('{"items": []}'),
    }
    assert etag not in others and len(others) == 2
