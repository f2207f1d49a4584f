"""Every file in events/ goes through the handler that template.yaml names (CodeUri + Handler),
with the environment events/env.json gives it, against a local S3: template, handler and events
cannot drift apart."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from podpages.local.recorder import Recorder
from support.events import load_event
from support.lambda_context import LambdaContext
from support.paths import EVENTS, EXAMPLES
from support.template import handler_source

SEED_KEY = "episodes/pytorch/backend-flexibility-revolution.json"
SEED_PAGE = "pytorch/backend-flexibility-revolution/index.html"


def given_the_seed_upload(stack):
    stack.upload(SEED_KEY, EXAMPLES / SEED_KEY)


def given_the_seed_published_then_removed(stack):
    given_the_seed_upload(stack)
    stack.deliver()
    assert SEED_PAGE in stack.keys(stack.site)
    stack.remove(SEED_KEY)


def given_the_show_upload(stack):
    stack.upload("shows/pytorch.json", EXAMPLES / "shows" / "pytorch.json")


def given_the_examples_published(stack):
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()


def site_has(key: str):
    return lambda stack, _response: key in stack.keys(stack.site)


def site_lacks(key: str):
    return lambda stack, _response: key not in stack.keys(stack.site)


def responds(status: int, content_type: str):
    return lambda _stack, response: (response["statusCode"], response["headers"]["Content-Type"]) == (
        status,
        content_type,
    )


def rebuild_queued(requests: int):
    return lambda _stack, response: (response["Status"], response["Data"]) == ("SUCCESS", {"Requests": requests})


def answers_with_no_failures(_stack, response) -> bool:
    return response == {"batchItemFailures": []}


def nothing_before(_stack) -> None:
    pass


JSON, HTML = "application/json; charset=utf-8", "text/html; charset=utf-8"
# event file: (function in template.yaml, what is there before, what must hold after)
CASES = {
    "s3-put-episode.json": ("RenderFunction", given_the_seed_upload, site_has(SEED_PAGE)),
    "sqs-put-episode.json": ("RenderFunction", given_the_seed_upload, site_has(SEED_PAGE)),
    "s3-delete-episode.json": ("RenderFunction", given_the_seed_published_then_removed, site_lacks(SEED_PAGE)),
    "sqs-delete-episode.json": ("RenderFunction", given_the_seed_published_then_removed, site_lacks(SEED_PAGE)),
    "s3-put-show.json": ("RenderFunction", given_the_show_upload, site_has("pytorch/index.html")),
    "http-nearby.json": ("NearbyFunction", given_the_examples_published, responds(200, JSON)),
    "http-nearby-html.json": ("NearbyFunction", given_the_examples_published, responds(200, HTML)),
    "http-nearby-unknown-episode.json": ("NearbyFunction", given_the_examples_published, responds(404, JSON)),
    "cfn-update-site-rebuild.json": ("RebuildFunction", given_the_examples_published, rebuild_queued(7)),
    # env.json configures no endpoint, as a new stack has none: a notification goes nowhere, and fails nothing.
    "sqs-notify.json": ("NotifyFunction", nothing_before, answers_with_no_failures),
}


def test_every_event_file_has_a_case():
    assert {path.name for path in EVENTS.glob("*.json")} - {"env.json"} == CASES.keys()


def test_the_events_name_the_bucket_env_json_gives_the_function():
    bucket = load_event("env.json")["RenderFunction"]["SOURCE_BUCKET"]
    for name in (name for name, case in CASES.items() if case[0] == "RenderFunction"):
        event = load_event(name)
        assert notified_buckets(event) == {bucket}, name


def notified_buckets(event: dict) -> set[str]:
    """The buckets an S3 notification names, whether it comes direct or wrapped in SQS messages."""
    records = [
        notified
        for record in event["Records"]
        for notified in (json.loads(record["body"])["Records"] if "body" in record else [record])
    ]
    return {record["s3"]["bucket"]["name"] for record in records}


def test_env_json_gives_both_functions_one_source_bucket():
    environment = load_event("env.json")

    assert environment["NearbyFunction"]["SOURCE_BUCKET"] == environment["RenderFunction"]["SOURCE_BUCKET"]
    assert environment["NearbyFunction"]["SITE_URL"] == environment["RenderFunction"]["SITE_URL"]


@pytest.mark.parametrize("function", ["RenderFunction", "NearbyFunction", "RebuildFunction", "NotifyFunction"])
def test_the_template_names_a_handler_that_exists(function):
    path, handler = handler_source(function)

    assert path.exists() and f"def {handler}(" in path.read_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_event_file_through_the_template_s_handler(
    stack, nearby, rebuild_function, notify_function, response_url, name
):
    function, given, then = CASES[name]
    given(stack)
    stack.discard_pending()  # the event under test stands in for what S3 queued
    handler = {
        "RenderFunction": stack.handler,
        "NearbyFunction": nearby,
        "RebuildFunction": rebuild_function.lambda_handler,
        "NotifyFunction": notify_function().lambda_handler,
    }[function]
    event = load_event(name)
    if "ResponseURL" in event:  # CloudFormation's presigned URL, here a local stand-in
        event["ResponseURL"] = response_url.url

    response = handler(event, LambdaContext(function_name=function))

    if name.startswith("sqs-"):
        assert response == {"batchItemFailures": []}
    assert then(stack, response)


def test_the_notify_event_tells_each_configured_endpoint_of_its_urls(notify_function):
    with Recorder() as recorder:
        handler = notify_function(recorder).lambda_handler
        message = json.loads(load_event("sqs-notify.json")["Records"][0]["body"])

        response = handler(load_event("sqs-notify.json"), LambdaContext(function_name="NotifyFunction"))

    [feed] = message["feeds"]
    assert response == {"batchItemFailures": []}
    assert [parse_qs(request.body.decode()) for request in recorder.kinds("websub")] == [
        {"hub.mode": ["publish"], "hub.url": [feed]}
    ]
    assert [parse_qs(urlsplit(request.path).query) for request in recorder.kinds("ping")] == [{"url": [feed]}]
    assert [json.loads(request.body)["urlList"] for request in recorder.kinds("indexnow")] == [message["pages"]]
