"""What the functions tell an operator, read the way CloudWatch gets it: the structured log lines,
which carry the S3 key, the sequencer and the request id they concern, and the metrics, in the EMF
blobs printed to stdout."""

import io
import json
import logging
import warnings

import pytest

from podpages.errors import CatalogConflict
from podpages.observability import logger
from podpages.storage.source_bucket import SourceBucket
from support.catalogs import episode_document
from support.events import nearby_request, notification
from support.lambda_context import LambdaContext
from support.paths import EXAMPLES
from support.queue import sqs_event

GOOD, BAD = "episodes/daily/first.json", "episodes/daily/broken.json"
GOOD_SEQUENCER, BAD_SEQUENCER = "0067A1F0C3D2E1B4A9", "0067A1F0C3D2E1B4B0"


@pytest.fixture
def log_lines():
    """The JSON lines the functions' Logger writes, formatted as CloudWatch receives them."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logger.registered_formatter)
    logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in buffer.getvalue().splitlines()]
    logger.removeHandler(handler)


def emitted(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith('{"_aws"')]


def values(blobs: list[dict], metric: str) -> list[float]:
    found = []
    for blob in blobs:
        if metric in blob:
            value = blob[metric]
            found += value if isinstance(value, list) else [value]
    return found


def units(blobs: list[dict]) -> dict[str, str]:
    return {
        definition["Name"]: definition["Unit"]
        for blob in blobs
        for directive in blob["_aws"]["CloudWatchMetrics"]
        for definition in directive["Metrics"]
    }


def a_batch_of_one_good_and_one_bad_upload(stack) -> dict:
    stack.upload(GOOD, json.dumps(episode_document("First")))
    stack.upload(BAD, json.dumps({"title": ""}))
    stack.discard_pending()
    for key, sequencer in ((GOOD, GOOD_SEQUENCER), (BAD, BAD_SEQUENCER)):
        stack.send(notification(key, sequencer))
    messages = stack.sqs.receive_message(QueueUrl=stack.queue_url, MaxNumberOfMessages=10)["Messages"]
    return sqs_event(messages, "arn:aws:sqs:us-east-1:123456789012:podpages-render-queue")


def test_log_lines_name_the_upload_its_sequencer_and_the_request(stack, log_lines):
    event = a_batch_of_one_good_and_one_bad_upload(stack)
    context = LambdaContext(aws_request_id="6b0d1c9e-request-under-test")

    stack.handler(event, context)

    lines = log_lines()
    [rejected] = [line for line in lines if line["message"] == "upload rejected"]
    [published] = [line for line in lines if line["message"] == "show published"]
    assert (rejected["s3_key"], rejected["sequencer"]) == (BAD, BAD_SEQUENCER)
    assert rejected["message_id"] in {record["messageId"] for record in event["Records"]}
    assert (published["show"], published["s3_keys"], published["sequencers"]) == ("daily", [GOOD], [GOOD_SEQUENCER])
    assert {line["function_request_id"] for line in (rejected, published)} == {context.aws_request_id}
    # The keys belong to the lines they concern, not to what the function logs afterwards.
    assert all("s3_key" not in line for line in lines if line["message"] == "show published")


def test_a_batch_counts_what_it_published_rejected_and_wrote_and_times_each_feed(stack, capsys):
    event = a_batch_of_one_good_and_one_bad_upload(stack)
    capsys.readouterr()

    stack.handler(event, LambdaContext())

    blobs = emitted(capsys.readouterr().out)
    assert sum(values(blobs, "EpisodesPublished")) == 1
    assert sum(values(blobs, "EpisodesRejected")) == 1
    assert sum(values(blobs, "PagesWritten")) == len(stack.keys(stack.site))  # a first publish writes them all
    [feed_ms] = values(blobs, "FeedBuildMs")
    assert feed_ms > 0
    assert units(blobs)["FeedBuildMs"] == "Milliseconds" and units(blobs)["EpisodesPublished"] == "Count"
    assert {blob["service"] for blob in blobs} == {"podpages"}


def test_a_batch_that_publishes_nothing_counts_its_messages_and_no_warning_says_it_has_no_metric(stack, capsys):
    # A notification of an upload that is gone by the time it is read: the batch publishes nothing
    stack.discard_pending()
    stack.send(notification("episodes/daily/gone.json", GOOD_SEQUENCER))
    messages = stack.sqs.receive_message(QueueUrl=stack.queue_url, MaxNumberOfMessages=10)["Messages"]
    event = sqs_event(messages, "arn:aws:sqs:us-east-1:123456789012:podpages-render-queue")
    capsys.readouterr()

    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        stack.handler(event, LambdaContext())

    blobs = emitted(capsys.readouterr().out)
    assert values(blobs, "RenderMessages") == [1]
    assert values(blobs, "EpisodesPublished") == [] and values(blobs, "PagesWritten") == []
    assert [str(warning.message) for warning in warned if "metrics" in str(warning.message)] == []


def test_a_lost_catalog_race_is_counted(stack, capsys, monkeypatch):
    commit = SourceBucket.write_catalog
    lost = []

    def lose_the_first(self, show, body, etag):
        if not lost:
            lost.append(show)
            raise CatalogConflict(show)
        commit(self, show, body, etag)

    monkeypatch.setattr(SourceBucket, "write_catalog", lose_the_first)
    stack.upload(GOOD, json.dumps(episode_document("First")))
    capsys.readouterr()

    delivery = stack.deliver()

    assert delivery.failed == [] and lost == ["daily"]
    assert values(emitted(capsys.readouterr().out), "CatalogConflicts") == [1]


def test_the_nearby_function_counts_each_request_whatever_its_answer(stack, nearby, capsys):
    for path in sorted(EXAMPLES.rglob("*.json")):
        stack.upload(path.relative_to(EXAMPLES).as_posix(), path)
    stack.deliver()
    capsys.readouterr()

    unrouted = nearby_request("pytorch", "backend-flexibility-revolution")
    unrouted["rawPath"] = unrouted["requestContext"]["http"]["path"] = "/api/shows/pytorch"
    for event in (
        nearby_request("pytorch", "backend-flexibility-revolution"),
        nearby_request("pytorch", "no-such-episode"),
        nearby_request("pytorch", "Not A Slug"),
        unrouted,
    ):
        nearby(event)

    assert values(emitted(capsys.readouterr().out), "NearbyRequests") == [1, 1, 1, 1]
