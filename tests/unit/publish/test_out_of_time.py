"""A batch of many shows ends before its invocation's timeout: a show whose publish would begin
with less than `SHOW_SECONDS` left is not begun, and its messages go back to the queue, where a
timed-out invocation would send back the whole batch, the shows it had published too."""

import copy
import json

from podpages.local.functions import LambdaContext
from podpages.publish.publisher import Publisher
from podpages.publish.render_function import SHOW_SECONDS, handle_render_event
from podpages.settings import Settings
from podpages.storage.site_bucket import SiteBucket
from support.catalogs import episode_document
from support.events import load_event, notification


def queue_batch(keys: list[str]) -> dict:
    """An SQS batch of one S3 notification a message, shaped like events/sqs-put-episode.json."""
    model = load_event("sqs-put-episode.json")["Records"][0]
    records = []
    for number, key in enumerate(keys):
        record = copy.deepcopy(model)
        record["messageId"] = f"message-{number}"
        record["body"] = json.dumps(notification(key, None, bucket="source-bucket"))
        records.append(record)
    return {"Records": records}


def uploaded(s3, keys: list[str]) -> None:
    for key in keys:
        slug = key.rsplit("/", 1)[1].removesuffix(".json")
        s3.put_object(Bucket="source-bucket", Key=key, Body=json.dumps(episode_document(slug)).encode())


def published_shows(s3) -> set[str]:
    listed = s3.list_objects_v2(Bucket="site-bucket").get("Contents", [])
    return {item["Key"].split("/")[0] for item in listed if item["Key"].endswith("/feed.xml")}


KEYS = ["episodes/alpha/one.json", "episodes/beta/two.json", "episodes/beta/three.json", "episodes/gamma/four.json"]


def test_shows_begun_too_late_go_back_to_the_queue_and_those_before_them_are_published(s3, source):
    # Given a batch of uploads into three shows, and an invocation whose time runs short after the first
    uploaded(s3, KEYS)
    publisher = Publisher(source, SiteBucket(s3, "site-bucket"), Settings(site_url="https://example.com"))
    left = iter([SHOW_SECONDS + 30, SHOW_SECONDS - 1, SHOW_SECONDS - 5])

    # When the render function takes the batch
    response = handle_render_event(queue_batch(KEYS), publisher, lambda: next(left))

    # Then the first show is published, and the messages of the two begun too late are returned
    assert published_shows(s3) == {"alpha"}
    failed = {failure["itemIdentifier"] for failure in response["batchItemFailures"]}
    assert failed == {"message-1", "message-2", "message-3"}


def test_with_time_enough_every_show_of_the_batch_is_published(s3, source):
    # Given the same batch, in an invocation as long as RenderFunction's (120 s), just begun
    uploaded(s3, KEYS)
    publisher = Publisher(source, SiteBucket(s3, "site-bucket"), Settings(site_url="https://example.com"))
    context = LambdaContext(timeout_seconds=120)

    # When the render function takes it
    response = handle_render_event(queue_batch(KEYS), publisher, lambda: context.get_remaining_time_in_millis() / 1000)

    # Then every show is published, and no message is returned
    assert (published_shows(s3), response["batchItemFailures"]) == ({"alpha", "beta", "gamma"}, [])


def test_the_local_context_counts_down_from_its_timeout(monkeypatch):
    # Given a context made at t = 100 s with a 120 s timeout
    clock = iter([100.0, 150.0, 300.0])
    monkeypatch.setattr("podpages.local.functions.time.monotonic", lambda: next(clock))
    context = LambdaContext(timeout_seconds=120)

    # Then 70 s are left at t = 150 s, and none after the timeout
    assert [context.get_remaining_time_in_millis(), context.get_remaining_time_in_millis()] == [70_000, 0]
