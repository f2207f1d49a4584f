"""Lambda's SQS event source mapping, on one machine: it receives batches, hands them to the
render handler, deletes what succeeded and leaves the failures to come back after the queue's
visibility timeout; after maxReceiveCount receives, SQS moves a message to the dead-letter queue."""

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from podpages.local.functions import Handler
from podpages.local.resources import queue_arn

RECEIVE_MAX = 10  # the most one ReceiveMessage returns


@dataclass
class Delivery:
    invocations: int = 0
    delivered: int = 0
    failed: list[str] = field(default_factory=list)  # message ids reported as failures
    errors: list[str] = field(default_factory=list)  # invocations that raised


def sqs_event(messages: list[dict[str, Any]], queue_arn: str) -> dict[str, Any]:
    """The event Lambda builds from received messages."""
    return {
        "Records": [
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message["Body"],
                "attributes": message.get("Attributes", {}),
                "messageAttributes": {},
                "md5OfBody": message["MD5OfBody"],
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": "us-east-1",
            }
            for message in messages
        ]
    }


class EventSourceMapping:
    def __init__(
        self,
        sqs: Any,
        queue_url: str,
        handler: Handler,
        batch_size: int = 10,
        batching_window: float = 0.0,
        retry_at_once: bool = False,
    ):
        """`retry_at_once` makes failures visible again at once, rather than after the visibility
        timeout; tests use it to redeliver without waiting."""
        self.sqs = sqs
        self.queue_url = queue_url
        self.queue_arn = queue_arn(sqs, queue_url)
        self.handler = handler
        self.batch_size = batch_size
        self.batching_window = batching_window
        self.retry_at_once = retry_at_once

    def poll(self, wait_seconds: int = 0) -> Delivery:
        """Gather one batch, as full as `batch_size` or as old as the batching window, and deliver it."""
        messages = self._receive(wait_seconds)
        if messages:
            deadline = time.monotonic() + self.batching_window
            while len(messages) < self.batch_size and time.monotonic() < deadline:
                received = self._receive(0)
                if not received:
                    time.sleep(0.05)
                messages += received
        return self._deliver(messages) if messages else Delivery()

    def drain(self, max_rounds: int = 50) -> Delivery:
        """Deliver batches until the queue is empty, or until a batch reports a failure."""
        total = Delivery()
        for _round in range(max_rounds):
            delivery = self.poll()
            total.invocations += delivery.invocations
            total.delivered += delivery.delivered
            total.failed += delivery.failed
            total.errors += delivery.errors
            if not delivery.invocations or delivery.failed:
                break
        return total

    def _receive(self, wait_seconds: int) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = self.sqs.receive_message(
            QueueUrl=self.queue_url,
            MaxNumberOfMessages=RECEIVE_MAX,
            AttributeNames=["All"],
            WaitTimeSeconds=wait_seconds,
        ).get("Messages", [])
        return messages

    def _deliver(self, messages: list[dict[str, Any]]) -> Delivery:
        delivery = Delivery()
        for start in range(0, len(messages), self.batch_size):
            batch = messages[start : start + self.batch_size]
            delivery.invocations += 1
            try:
                response = self.handler(sqs_event(batch, self.queue_arn)) or {}
                failed = {failure["itemIdentifier"] for failure in response.get("batchItemFailures", [])}
            except Exception as error:  # as on Lambda, a function error fails the whole batch
                delivery.errors.append(f"{type(error).__name__}: {error}")
                failed = {message["MessageId"] for message in batch}
            for message in batch:
                if message["MessageId"] in failed:
                    delivery.failed.append(message["MessageId"])
                    if self.retry_at_once:
                        self._settle(delivery, "change_message_visibility", message, VisibilityTimeout=0)
                else:
                    delivery.delivered += 1
                    self._settle(delivery, "delete_message", message)
        return delivery

    def _settle(self, delivery: Delivery, action: str, message: dict[str, Any], **options: Any) -> None:
        """Delete a message, or make it visible again. When the batch outlived the visibility
        timeout, another poller has the message now and this receipt is void; SQS will deliver it
        again, which at-least-once delivery allows."""
        try:
            getattr(self.sqs, action)(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"], **options)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") != "ReceiptHandleIsInvalid":
                raise
            delivery.errors.append(f"{message['MessageId']}: received again elsewhere before it was settled")


def run_in_turn(
    mappings: Mapping[str, EventSourceMapping],
    stop: threading.Event,
    on_delivery: Callable[[str, Delivery], None] = lambda _queue, _delivery: None,
    idle: float = 0.5,
) -> None:
    """Poll each queue's mapping in turn until `stop` is set, so that the one copy of the function
    handles one event at a time, as a Lambda instance does. Like Lambda's pollers, it outlives any
    error: it reports it, with the queue's name, and polls again."""
    while not stop.is_set():
        quiet = True
        for queue, mapping in mappings.items():
            try:
                delivery = mapping.poll()
            except (ClientError, BotoCoreError) as error:
                delivery = Delivery(errors=[f"polling failed: {error}"])
            if delivery.invocations or delivery.errors:
                quiet = False
                on_delivery(queue, delivery)
        if quiet:
            stop.wait(idle)
