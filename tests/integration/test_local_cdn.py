"""The local CloudFront does what the template's CloudFront functions do: their own JavaScript runs
under Node.js against the same URIs, Accept headers and query strings. Through it, the nearby API
gets requests as the distribution sends them: a format for whatever Accept asked, so that one
cached copy serves every Accept that prefers it, and the origin header the function checks."""

import json
import shutil
import subprocess
import threading
from dataclasses import dataclass
from urllib.parse import parse_qsl

import pytest

from podpages.local import template
from podpages.local.cdn import LocalCdn, directory_index, nearby_format
from podpages.nearby.request import preferred_format
from support.demo import http_get
from support.events import function_environment
from support.lambda_context import LambdaContext
from support.paths import EXAMPLES
from support.template import load_handler, resource

URIS = [
    "/",
    "/pytorch/",
    "/pytorch",
    "/pytorch/backend-flexibility-revolution",
    "/pytorch/backend-flexibility-revolution/",
    "/pytorch/feed.xml",
    "/pytorch/2026",
    "/sitemap.xml",
    "/robots.txt",
    "/cover.png",
    "/pytorch/seed/transcript.txt",
    "/a.b/c",
    "/a/b.c/",
]

CHROME = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
    "application/signed-exchange;v=b3;q=0.7"
)
# Accept headers as browsers, fetch() and clients send them, and malformed ones; a list is a header
# sent more than once, which API Gateway joins with commas.
ACCEPTS: list[str | list[str] | None] = [
    None,
    "",
    "*/*",
    "application/json",
    "text/html",
    CHROME,
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json, text/html;q=0.5",
    "text/html;q=0.9, application/json;q=0.4",
    "TEXT/HTML",
    "Text/Html;Q=0.3, Application/JSON;q=0.2",
    "text/html;q=0.5, application/json;q=0.5",
    "text/html;q=1.0",
    "text/html;q=1.000, application/json;q=0.999",
    "application/json;q=0, text/html;q=0.001",
    "text/html;level=1;q=0.4, application/json;q=0.3",
    "text/html;q=0.5;q=0.1, application/json;q=0.3",
    "text/html, text/html;q=0, application/json;q=0.9",
    "text/html \t; \tq = 0.9 , application/json;q=0.1",
    " text/html ",
    "text/html;q=oops",
    "text/html;q=",
    "text/html;q",
    "text/html;q=1.5",
    "text/html;q=1.0001",
    "text/html;q=0.1234, application/json;q=0.0001",
    "text/html;q=.5",
    "text/html;q=1e-1",
    "text/html;q=0x1",
    "text/html;q=+1",
    "text/html\u00a0",
    "application/json;q=0.5,text/html;q=0.5000",
    ",,;,",
    ["application/json;q=0.5", "text/html"],
    ["text/html;q=0.2", "application/json;q=0.1"],
]
# (query string, Accept): the format named, named empty, named twice, or not at all.
QUERIES = [
    ("", "text/html"),
    ("", None),
    ("limit=3", "text/html"),
    ("format=json", "text/html"),
    ("format=html", None),
    ("limit=3&format=html", "application/json"),
    ("format=", "text/html"),
    ("format", "text/html"),
    ("format=&limit=3", None),
    ("format=&format=html", "application/json"),
    ("format=xml", "text/html"),
]

SEED = "backend-flexibility-revolution"
NEARBY = f"/api/shows/pytorch/episodes/{SEED}/nearby"
SECRET = "the-local-stack-s-origin-secret"
HTML_ACCEPTS = [
    "text/html",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "TEXT/HTML;q=0.9, application/json;q=0.1",
    "application/json;q=0.2, text/html",
]
JSON_ACCEPTS = [None, "application/json", "*/*", "application/json, text/html;q=0.5", "text/html;q=oops"]


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("SKIPPED: Node.js is missing, so the CloudFront functions were NOT run; install nodejs")
    return found


def run_cloudfront_function(node: str, code: str, events: list[dict]) -> list[dict]:
    """What the function's `handler` returns for each event, run by Node.js."""
    script = code + (
        "\nconst events = JSON.parse(process.argv[1]);"
        "\nconsole.log(JSON.stringify(events.map((event) => handler(event))));"
    )
    result = subprocess.run([node, "-e", script, json.dumps(events)], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def viewer_request(query: str = "", accept: str | list[str] | None = None) -> dict:
    """A CloudFront Functions viewer-request event: a value for each name, and all of them when it repeats."""
    values: dict[str, list[str]] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        values.setdefault(name, []).append(value)
    headers = {} if accept is None else {"accept": _field(accept if isinstance(accept, list) else [accept])}
    return {
        "request": {"uri": NEARBY, "querystring": {name: _field(v) for name, v in values.items()}, "headers": headers}
    }


def _field(values: list[str]) -> dict:
    field: dict = {"value": values[0]}
    if len(values) > 1:
        field["multiValue"] = [{"value": value} for value in values]
    return field


def formats_in(querystring: dict) -> list[str]:
    """The values of `format` in a CloudFront Functions query string."""
    field = querystring.get("format")
    if field is None:
        return []
    return [item["value"] for item in field.get("multiValue", [field])]


def test_the_directory_index_rewrite_is_the_cloudfront_function_s(node):
    requests = run_cloudfront_function(node, template.directory_index_code(), [{"request": {"uri": u}} for u in URIS])

    assert [directory_index(uri) for uri in URIS] == [request["uri"] for request in requests]


def test_the_format_cloudfront_gives_each_accept_header_is_the_python_rule_s(node):
    # Given API requests that name no format, with all sorts of Accept headers
    events = [viewer_request(accept=accept) for accept in ACCEPTS]

    # When the template's NearbyFormatFunction runs on each
    requests = run_cloudfront_function(node, template.nearby_format_code(), events)

    # Then each gets the format nearby/request.py would choose from the same header
    expected = [[preferred_format(",".join(accept) if isinstance(accept, list) else accept)] for accept in ACCEPTS]
    assert [formats_in(request["querystring"]) for request in requests] == expected


def test_the_local_cdn_sets_the_format_of_a_query_as_the_cloudfront_function_does(node):
    # Given API requests whose query names a format, names it empty or twice, or names none
    events = [viewer_request(query, accept) for query, accept in QUERIES]

    # When the template's NearbyFormatFunction runs on each
    requests = run_cloudfront_function(node, template.nearby_format_code(), events)

    # Then the local CDN leaves or sets the same formats
    local = [nearby_format(query, accept) for query, accept in QUERIES]
    expected = [
        [value for name, value in parse_qsl(query, keep_blank_values=True) if name == "format"] for query in local
    ]
    assert [formats_in(request["querystring"]) for request in requests] == expected


@dataclass
class ServedApi:
    url: str
    sent: list[dict]  # each event the nearby function got, as API Gateway passed it on


@pytest.fixture
def behind_local_cdn(local_aws, stack, monkeypatch):
    """The examples published, and the local CDN in front of NearbyFunction imported as deployed:
    with an origin secret, which the CDN sends as the distribution does."""
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()
    environment = function_environment("NearbyFunction") | local_aws.environment() | {"ORIGIN_SECRET": SECRET}
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    _handler, module = load_handler("NearbyFunction")
    sent: list[dict] = []

    def nearby(event: dict) -> dict:
        sent.append(event)
        return module.lambda_handler(event, LambdaContext(function_name="NearbyFunction"))

    cdn = LocalCdn(("127.0.0.1", 0), stack.s3, stack.site, nearby, origin_secret=SECRET)
    thread = threading.Thread(target=cdn.serve_forever, daemon=True)
    thread.start()
    yield ServedApi(cdn.url, sent)
    cdn.shutdown()
    cdn.server_close()
    thread.join(timeout=5)


def cache_key(event: dict) -> tuple:
    """What NearbyCachePolicy keys a request on: its path, and the query strings and headers it names."""
    key = resource("NearbyCachePolicy")["Properties"]["CachePolicyConfig"]["ParametersInCacheKeyAndForwardedToOrigin"]
    query = event.get("queryStringParameters", {})
    headers = key["HeadersConfig"].get("Headers", [])
    return (
        event["rawPath"],
        tuple(query.get(name) for name in key["QueryStringsConfig"]["QueryStrings"]),
        tuple(event["headers"].get(name.lower()) for name in headers),
    )


def ask(api: ServedApi, accept: str | None) -> bytes:
    """The body of the seed's listing through the CDN, asked with `accept` (None: no Accept header)."""
    status, _headers, body = http_get(api.url + NEARBY, {} if accept is None else {"Accept": accept})
    assert status == 200, body
    return body


def test_accept_headers_that_prefer_html_share_one_cache_key_and_get_the_page_s_section(behind_local_cdn, stack):
    # Given the API behind the local CDN
    # When it is asked with Accept headers that all prefer HTML
    bodies = {ask(behind_local_cdn, accept) for accept in HTML_ACCEPTS}

    # Then CloudFront would key them all alike, on format=html, and one body, the page's own section, serves them
    assert {cache_key(event) for event in behind_local_cdn.sent} == {(NEARBY, (None, "html"), ())}
    [body] = bodies
    assert body.decode() in stack.read(stack.site, f"pytorch/{SEED}/index.html").decode()


def test_accept_headers_that_prefer_json_share_one_cache_key_and_get_the_listing(behind_local_cdn):
    # Given the API behind the local CDN
    # When it is asked with Accept headers that all prefer JSON, or none
    bodies = {ask(behind_local_cdn, accept) for accept in JSON_ACCEPTS}

    # Then CloudFront would key them all alike, on format=json, and one body, the episode's listing, serves them
    assert {cache_key(event) for event in behind_local_cdn.sent} == {(NEARBY, (None, "json"), ())}
    [body] = bodies
    assert json.loads(body)["episode"]["slug"] == SEED
