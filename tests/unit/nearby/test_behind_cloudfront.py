"""The nearby API answers only what came through CloudFront: with an origin secret set, a request
must carry it in the origin header, as CloudFront adds it; one that called the API's own endpoint
gets a 403 that names the header. Without a secret (the tests, the local stack) all are answered."""

import json

from podpages.nearby.api import ORIGIN_HEADER, nearby_api
from podpages.nearby.cache import CatalogCache
from podpages.settings import Settings
from support.catalogs import SITE_URL, daily_catalog, stored
from support.events import nearby_request
from support.lambda_context import LambdaContext

SECRET = "the-stack-s-origin-secret"


def ask(source, secret: str, headers: dict[str, str] | None = None) -> dict:
    """A request for an episode of a published show, to the API as deployed with `secret`."""
    source.write_catalog(*stored(daily_catalog(3)), None)
    app = nearby_api(CatalogCache(source), Settings(site_url=SITE_URL, origin_secret=secret))
    return app.resolve(nearby_request("daily", "e02", headers=headers), LambdaContext(function_name="NearbyFunction"))


def problems(response: dict) -> dict[str, str]:
    return {problem["field"]: problem["message"] for problem in json.loads(response["body"])["problems"]}


def test_a_request_straight_to_the_api_without_the_origin_header_is_a_403_that_names_it(source):
    # Given the API with an origin secret, as deployed
    # When a request comes without the header CloudFront adds
    response = ask(source, SECRET)

    # Then it is refused, naming the header
    assert response["statusCode"] == 403
    assert set(problems(response)) == {ORIGIN_HEADER}


def test_a_request_with_a_wrong_origin_header_is_a_403(source):
    # Given the API with an origin secret
    # When a request carries the header with another value
    response = ask(source, SECRET, {ORIGIN_HEADER: "a-guess"})

    # Then it is refused
    assert response["statusCode"] == 403


def test_a_request_that_carries_the_origin_secret_is_answered(source):
    # Given the API with an origin secret
    # When a request carries it, as CloudFront's do
    response = ask(source, SECRET, {ORIGIN_HEADER: SECRET})

    # Then it gets the listing
    assert response["statusCode"] == 200


def test_without_an_origin_secret_every_request_is_answered(source):
    # Given the API with no origin secret, as the tests and the local stack run it
    # When a request comes without the header
    response = ask(source, "")

    # Then it gets the listing
    assert response["statusCode"] == 200
