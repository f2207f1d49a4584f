"""The local event source mapping against moto's SQS over HTTP: batches as full as the batch size,
successes deleted, failures back after the visibility timeout, and the DLQ after maxReceiveCount."""

import json
import time

import pytest

from podpages.local import template
from podpages.local.event_source import EventSourceMapping
from podpages.local.resources import create_resources

VISIBILITY = 1  # second


@pytest.fixture
def queue(local_aws):
    local_aws.reset()
    sqs = local_aws.client("sqs")
    resources = create_resources(local_aws.client("s3"), sqs, "source-bucket", "site-bucket", VISIBILITY)
    sqs.purge_queue(QueueUrl=resources.queue_url)  # S3's test event
    return sqs, resources


def send(sqs, queue_url: str, count: int) -> None:
    for number in range(count):
        sqs.send_message(QueueUrl=queue_url, MessageBody=json.dumps({"n": number}))


def depth(sqs, queue_url: str) -> tuple[int, int]:
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=names)["Attributes"]
    return int(attributes[names[0]]), int(attributes[names[1]])


def test_batches_are_as_full_as_the_batch_size_and_successes_are_deleted(queue):
    sqs, resources = queue
    send(sqs, resources.queue_url, 5)
    batches = []

    mapping = EventSourceMapping(sqs, resources.queue_url, lambda event: batches.append(event) or {}, batch_size=2)
    delivery = mapping.drain()

    assert [len(batch["Records"]) for batch in batches] == [2, 2, 1]
    assert delivery.delivered == 5 and depth(sqs, resources.queue_url) == (0, 0)
    assert {record["eventSource"] for batch in batches for record in batch["Records"]} == {"aws:sqs"}


def test_a_reported_failure_returns_after_the_visibility_timeout_and_the_rest_is_deleted(queue):
    sqs, resources = queue
    send(sqs, resources.queue_url, 2)

    def fail_the_first(event):
        return {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}

    delivery = EventSourceMapping(sqs, resources.queue_url, fail_the_first).poll()

    assert (delivery.delivered, len(delivery.failed)) == (1, 1)
    assert depth(sqs, resources.queue_url) == (0, 1)  # in flight until the visibility timeout
    time.sleep(VISIBILITY + 0.5)
    assert depth(sqs, resources.queue_url) == (1, 0)


def test_a_message_that_keeps_failing_goes_to_the_dlq_after_max_receive_count(queue):
    sqs, resources = queue
    send(sqs, resources.queue_url, 1)
    receives = []

    def always_raise(event):
        receives.append(event["Records"][0]["attributes"]["ApproximateReceiveCount"])
        raise RuntimeError("the render function is down")

    mapping = EventSourceMapping(sqs, resources.queue_url, always_raise)
    errors = []
    for _attempt in range(template.max_receive_count() + 2):
        errors += mapping.poll().errors
        time.sleep(VISIBILITY + 0.2)

    assert receives == [str(count) for count in range(1, template.max_receive_count() + 1)]
    assert errors[0] == "RuntimeError: the render function is down"
    assert depth(sqs, resources.queue_url) == (0, 0)
    assert depth(sqs, resources.dead_letter_queue_url) == (1, 0)
