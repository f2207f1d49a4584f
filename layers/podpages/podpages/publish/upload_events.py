"""S3 notifications, as they arrive directly or wrapped in SQS messages, read as upload events."""

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_plus

from aws_lambda_powertools.utilities.data_classes import S3Event

TEST_EVENT = "s3:TestEvent"


@dataclass(frozen=True)
class UploadEvent:
    key: str
    removed: bool
    sequencer: str | None = None  # S3 always sends one; moto and hand-made events may not
    time: str | None = None


class MalformedNotification(ValueError):
    """A queue message that is not an S3 notification: nothing to retry, nothing to report to a publisher."""


def upload_events(notification: dict[str, Any]) -> list[UploadEvent]:
    """The uploads an S3 notification reports. S3's test event, sent when notifications are set up, reports none."""
    if notification.get("Event") == TEST_EVENT:
        return []
    if not isinstance(notification.get("Records"), list):
        raise MalformedNotification("an S3 notification has a Records list")
    return [
        UploadEvent(
            key=unquote_plus(record.s3.get_object.key),  # keys arrive URL-encoded, with + for a space
            removed=record.event_name.startswith("ObjectRemoved"),
            sequencer=record["s3"]["object"].get("sequencer"),
            time=record.get("eventTime"),
        )
        for record in S3Event(notification).records
    ]


def message_events(body: str) -> list[UploadEvent]:
    """The uploads one SQS message from the source bucket's notification carries."""
    try:
        notification = json.loads(body)
    except ValueError as error:
        raise MalformedNotification(f"the message body is not JSON: {error}") from None
    if not isinstance(notification, dict):
        raise MalformedNotification("the message body is not a JSON object")
    try:
        return upload_events(notification)
    except (KeyError, TypeError, AttributeError) as error:
        raise MalformedNotification(f"the notification lacks {error}") from None
