"""The nearby-episodes API: its one route, its caching headers, and the one place where domain
errors become HTTP responses. Bodies of errors are JSON that names the problem, and nothing else."""

import hmac
import json
from http import HTTPStatus

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError

from podpages.errors import InvalidRequest, Problem, UnknownEpisode, UnknownShow
from podpages.nearby import listing
from podpages.nearby.cache import CatalogCache
from podpages.nearby.request import NearbyRequest
from podpages.observability import MetricUnit, metrics
from podpages.settings import Settings

ROUTE = "/api/shows/<show>/episodes/<episode>/nearby"
# Browsers keep a listing briefly; CloudFront keeps it longer and revalidates with the ETag.
LISTING_CACHE = "public, max-age=60, s-maxage=300"
ERROR_CACHE = "public, max-age=60, s-maxage=60"
CONTENT_TYPES = {"json": "application/json; charset=utf-8", "html": "text/html; charset=utf-8"}
# Public data, open to every origin. The headers go on every response, whatever the request's
# Origin, so that a copy CloudFront cached for one origin serves them all.
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag"}
# CloudFront adds this header to every request it sends the API (template.yaml's OriginCustomHeaders),
# holding the value the function gets as ORIGIN_SECRET. A request without it called the API's own
# endpoint, past CloudFront's cache and headers.
ORIGIN_HEADER = "x-origin-verify"


def nearby_api(catalogs: CatalogCache, settings: Settings) -> APIGatewayHttpResolver:
    app = APIGatewayHttpResolver()

    @app.get(ROUTE)
    def nearby(show: str, episode: str) -> Response[str]:
        metrics.add_metric(name="NearbyRequests", unit=MetricUnit.Count, value=1)
        event = app.current_event
        if not _through_cloudfront(event.headers.get(ORIGIN_HEADER), settings.origin_secret):
            problem = Problem(ORIGIN_HEADER, f"missing or wrong: ask through {settings.site_url}/api/")
            return _error(HTTPStatus.FORBIDDEN, [problem])
        request = NearbyRequest.parse(
            show,
            episode,
            event.query_string_parameters or {},
            event.headers.get("accept"),
            settings.nearby_count,
        )
        index = catalogs.listing(request.show, request.episode, request.limit)
        if request.format == "html":
            body = listing.as_html(index, request.episode, request.limit, settings.site_url)
        else:
            body = json.dumps(listing.as_json(index, request.episode, request.limit, settings.site_url))
        etag = request.etag(body)
        headers = CORS | {"ETag": etag, "Cache-Control": LISTING_CACHE, "Vary": "Accept"}
        if _matches(event.headers.get("if-none-match"), etag):
            return Response(HTTPStatus.NOT_MODIFIED.value, body="", headers=headers)
        return Response(HTTPStatus.OK.value, CONTENT_TYPES[request.format], body, headers)

    @app.exception_handler(InvalidRequest)
    def invalid(error: InvalidRequest) -> Response[str]:
        return _error(HTTPStatus.BAD_REQUEST, error.problems)

    @app.exception_handler([UnknownShow, UnknownEpisode])
    def unknown(error: UnknownShow | UnknownEpisode) -> Response[str]:
        return _error(HTTPStatus.NOT_FOUND, [error.problem])

    @app.not_found
    def no_route(_not_found: NotFoundError) -> Response[str]:
        metrics.add_metric(name="NearbyRequests", unit=MetricUnit.Count, value=1)
        return _error(HTTPStatus.NOT_FOUND, [Problem("path", "use /api/shows/<show>/episodes/<episode>/nearby")])

    return app


def _through_cloudfront(sent: str | None, secret: str) -> bool:
    """Without a secret (the tests, the local stack) every request passes. The comparison takes as
    long whatever the guess, so timing tells a caller nothing of how much of it was right."""
    if not secret:
        return True
    return hmac.compare_digest((sent or "").encode(errors="surrogatepass"), secret.encode(errors="surrogatepass"))


def _matches(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match compares weakly (RFC 9110), so a `W/` prefix a proxy added still matches."""
    if not if_none_match:
        return False
    candidates = {candidate.strip().removeprefix("W/") for candidate in if_none_match.split(",")}
    return "*" in candidates or etag in candidates


def _error(status: HTTPStatus, problems: list[Problem]) -> Response[str]:
    body = {"error": status.phrase, "problems": [{"field": p.field, "message": p.message} for p in problems]}
    return Response(status.value, CONTENT_TYPES["json"], json.dumps(body), CORS | {"Cache-Control": ERROR_CACHE})
