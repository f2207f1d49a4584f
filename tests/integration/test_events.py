"""Every file in events/ goes through the handler that template.yaml names (CodeUri + Handler),
with the environment events/env.json gives it, against a local S3: template, handler and events
cannot drift apart."""

import pytest

from support.events import load_event
from support.lambda_context import LambdaContext
from support.paths import EVENTS, EXAMPLES
from support.template import handler_source, resource

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


CASES = {
    "s3-put-episode.json": (given_the_seed_upload, lambda keys: SEED_PAGE in keys),
    "sqs-put-episode.json": (given_the_seed_upload, lambda keys: SEED_PAGE in keys),
    "s3-delete-episode.json": (given_the_seed_published_then_removed, lambda keys: SEED_PAGE not in keys),
    "sqs-delete-episode.json": (given_the_seed_published_then_removed, lambda keys: SEED_PAGE not in keys),
    "s3-put-show.json": (given_the_show_upload, lambda keys: "pytorch/index.html" in keys),
}


def test_every_event_file_has_a_case():
    assert {path.name for path in EVENTS.glob("*.json")} - {"env.json"} == CASES.keys()


def test_the_events_name_the_bucket_env_json_gives_the_function():
    bucket = load_event("env.json")["RenderFunction"]["SOURCE_BUCKET"]
    for name in CASES:
        event = load_event(name)
        bodies = [record.get("body") for record in event["Records"]]
        assert all(bucket in (body or "") for body in bodies) or all(
            record["s3"]["bucket"]["name"] == bucket for record in event["Records"]
        ), name


def test_the_template_names_a_handler_that_exists():
    path, function = handler_source("RenderFunction")

    assert path.exists() and f"def {function}(" in path.read_text()
    assert resource("RenderFunction")["Properties"]["Events"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_event_file_through_the_template_s_handler(stack, name):
    given, then = CASES[name]
    given(stack)
    stack.discard_pending()  # the event under test stands in for what S3 queued

    response = stack.handler(load_event(name), LambdaContext())

    if name.startswith("sqs-"):
        assert response == {"batchItemFailures": []}
    assert then(stack.keys(stack.site))
