"""The local HTTP API: a request on the template's route becomes the payload v2.0 event API Gateway
sends, and any other path gets API Gateway's own 404."""

import base64

from podpages.local.http_api import http_api_event, http_response
from podpages.nearby.api import ROUTE


def test_a_request_on_the_route_becomes_a_v2_event_with_its_path_parameters():
    event = http_api_event(
        "GET", "/api/shows/pytorch/episodes/seed/nearby", "limit=3&format=html", {"Accept": "text/html"}, "10.0.0.1"
    )

    assert event["version"] == "2.0"
    assert event["routeKey"] == "GET " + ROUTE.replace("<", "{").replace(">", "}")
    assert event["pathParameters"] == {"show": "pytorch", "episode": "seed"}
    assert event["queryStringParameters"] == {"limit": "3", "format": "html"}
    assert event["headers"] == {"accept": "text/html"}
    assert event["requestContext"]["http"] == {
        "method": "GET",
        "path": "/api/shows/pytorch/episodes/seed/nearby",
        "protocol": "HTTP/1.1",
        "sourceIp": "10.0.0.1",
    }


def test_repeated_query_parameters_are_joined_with_commas_as_api_gateway_does():
    event = http_api_event("GET", "/api/shows/a/episodes/b/nearby", "limit=1&limit=2", {}, "10.0.0.1")

    assert event["queryStringParameters"] == {"limit": "1,2"}


def test_a_request_without_a_query_has_no_query_parameters():
    assert "queryStringParameters" not in http_api_event("GET", "/api/shows/a/episodes/b/nearby", "", {}, "10.0.0.1")


def test_other_paths_and_methods_match_no_route():
    for method, path in [
        ("GET", "/api/shows/a"),
        ("GET", "/api/shows/a/episodes/b/nearby/extra"),
        ("GET", "/api/shows/a/b/episodes/c/nearby"),
        ("POST", "/api/shows/a/episodes/b/nearby"),
    ]:
        assert http_api_event(method, path, "", {}, "10.0.0.1") is None, (method, path)


def test_a_response_becomes_http_again_base64_bodies_included():
    plain = http_response({"statusCode": 200, "headers": {"ETag": '"x"'}, "body": "{}"})
    encoded = http_response(
        {"statusCode": 200, "body": base64.b64encode(b"\x00\x01").decode(), "isBase64Encoded": True}
    )
    empty = http_response({"statusCode": 304, "body": None})

    assert (plain.status, plain.headers, plain.body) == (200, {"ETag": '"x"'}, b"{}")
    assert encoded.body == b"\x00\x01" and empty.body == b""
