"""CloudFront, on one machine: the site bucket served over HTTP the way the distribution serves
it. Directory URLs are rewritten to index.html as DirectoryIndexFunction does, objects keep the
Content-Type and Cache-Control they were stored with, the security headers are added, and
`/api/*` goes to the nearby handler through the HTTP API, its Accept header made a format as
NearbyFormatFunction does and the origin header added. Nothing is cached: every request reaches
the bucket or the function."""

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, unquote_plus, urlsplit

from botocore.exceptions import ClientError

from podpages.local import template
from podpages.local.functions import Handler
from podpages.local.http_api import HttpResponse, http_api_event, http_response, not_found
from podpages.nearby.request import preferred_format

API_PREFIX = "/api/"


def directory_index(uri: str) -> str:
    """What DirectoryIndexFunction does to a URI: `/x/` and `/x` are served from `x/index.html`."""
    if uri.endswith("/"):
        return uri + "index.html"
    if "." not in uri.rsplit("/", 1)[-1]:
        return uri + "/index.html"
    return uri


def nearby_format(query: str, accept: str | None) -> str:
    """What NearbyFormatFunction does to an API request's query string: one that names no format
    (or only an empty one) gets the format its Accept header prefers, so that the cache is keyed
    on the format, never on Accept."""
    formats = [value for name, value in parse_qsl(query, keep_blank_values=True) if name == "format"]
    if formats and formats != [""]:
        return query
    kept = [part for part in query.split("&") if part and unquote_plus(part.partition("=")[0]) != "format"]
    return "&".join([*kept, f"format={preferred_format(accept)}"])


class LocalCdn(ThreadingHTTPServer):
    daemon_threads = True
    server_address: tuple[str, int]  # an AF_INET socket's name, once bound

    def __init__(
        self,
        address: tuple[str, int],
        s3: Any,
        site_bucket: str,
        nearby: Handler | None,
        origin_secret: str | None = None,
    ):
        """`origin_secret` is what CloudFront sends the API, the value the nearby function was given as
        ORIGIN_SECRET: by default the one events/env.json gives it."""
        self.s3 = s3
        self.site_bucket = site_bucket
        self.nearby = nearby
        self.security_headers = template.security_headers()
        self.cors_headers = template.cors_headers()
        given = template.function_environment("NearbyFunction").get("ORIGIN_SECRET", "")
        self.origin_header = template.api_origin_header()
        self.origin_secret = given if origin_secret is None else origin_secret
        super().__init__(address, _Request)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def respond(self, method: str, target: str, headers: dict[str, str], client: str) -> HttpResponse:
        parts = urlsplit(target)
        if parts.path.startswith(API_PREFIX):
            response = self._api(method, parts.path, parts.query, headers, client)
        else:
            response = self._object(directory_index(unquote(parts.path)), headers.get("If-None-Match"))
        cross_origin = any(name.lower() == "origin" for name in headers)
        added = self.security_headers | (self.cors_headers if cross_origin else {})
        return HttpResponse(response.status, added | response.headers, response.body)

    def _api(self, method: str, path: str, query: str, headers: dict[str, str], client: str) -> HttpResponse:
        accept = next((value for name, value in headers.items() if name.lower() == "accept"), None)
        # CloudFront's origin header replaces any the viewer sent under its name.
        sent = {name: value for name, value in headers.items() if name.lower() != self.origin_header.lower()}
        sent[self.origin_header] = self.origin_secret
        event = http_api_event(method, path, nearby_format(query, accept), sent, client)
        return http_response(self.nearby(event)) if self.nearby and event else not_found()

    def _object(self, uri: str, if_none_match: str | None) -> HttpResponse:
        options = {"IfNoneMatch": if_none_match} if if_none_match else {}
        try:
            stored = self.s3.get_object(Bucket=self.site_bucket, Key=uri.removeprefix("/"), **options)
        except ClientError as error:
            status = error.response["ResponseMetadata"]["HTTPStatusCode"]
            if status == 304 and if_none_match:  # S3 answers 304 only to the ETag sent
                return HttpResponse(304, {"ETag": if_none_match}, b"")
            if status in (403, 404):
                return HttpResponse(404, {"Content-Type": "text/plain; charset=utf-8"}, b"404 Not Found\n")
            raise
        headers = {"Content-Type": stored["ContentType"], "ETag": stored["ETag"]}
        if stored.get("CacheControl"):
            headers["Cache-Control"] = stored["CacheControl"]
        return HttpResponse(200, headers, stored["Body"].read())


class _Request(BaseHTTPRequestHandler):
    server: LocalCdn
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._send(self.server.respond("GET", self.path, dict(self.headers), self.client_address[0]), body=True)

    def do_HEAD(self) -> None:
        self._send(self.server.respond("GET", self.path, dict(self.headers), self.client_address[0]), body=False)

    def _send(self, response: HttpResponse, body: bool) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            if name.lower() not in ("content-length", "connection"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if body and response.status != 304:
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: Any) -> None:  # `format`: the standard library names it so
        pass  # the demo prints what matters; a line per request would drown it
