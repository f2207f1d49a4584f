"""The buckets, the render and rebuild queues and their dead-letter queue, the notify queue and its
own, and the S3 notifications of template.yaml, made locally."""

import json
from dataclasses import dataclass
from typing import Any

from podpages.local import template

# A failed batch comes back after this, not the template's 365 s, so retries show within seconds.
VISIBILITY_TIMEOUT = 10


@dataclass(frozen=True)
class LocalResources:
    source_bucket: str
    site_bucket: str
    queue_url: str
    dead_letter_queue_url: str
    rebuild_queue_url: str
    notify_queue_url: str
    notify_dead_letter_queue_url: str

    def queue_urls(self) -> dict[str, str]:
        """Each queue's URL by its logical id in template.yaml."""
        return {
            "RenderQueue": self.queue_url,
            "RebuildQueue": self.rebuild_queue_url,
            "NotifyQueue": self.notify_queue_url,
        }


def create_resources(
    s3: Any, sqs: Any, source_bucket: str, site_bucket: str, visibility_timeout: int = VISIBILITY_TIMEOUT
) -> LocalResources:
    for bucket in (source_bucket, site_bucket):
        s3.create_bucket(Bucket=bucket)
    dead_letters, notify_dead_letters = (
        sqs.create_queue(QueueName=name)["QueueUrl"] for name in ("podpages-render-dlq", "podpages-notify-dlq")
    )
    queue, rebuilds, notifications = (
        sqs.create_queue(
            QueueName=name,
            Attributes={
                "VisibilityTimeout": str(visibility_timeout),
                "RedrivePolicy": json.dumps(
                    {
                        "deadLetterTargetArn": queue_arn(sqs, dead_letter_queue),
                        "maxReceiveCount": str(template.max_receive_count(logical_id)),
                    }
                ),
            },
        )["QueueUrl"]
        for name, logical_id, dead_letter_queue in (
            ("podpages-render-queue", "RenderQueue", dead_letters),
            ("podpages-rebuild-queue", "RebuildQueue", dead_letters),
            ("podpages-notify-queue", "NotifyQueue", notify_dead_letters),
        )
    )
    s3.put_bucket_notification_configuration(
        Bucket=source_bucket, NotificationConfiguration=template.queue_notifications(queue_arn(sqs, queue))
    )
    return LocalResources(source_bucket, site_bucket, queue, dead_letters, rebuilds, notifications, notify_dead_letters)


def queue_arn(sqs: Any, queue_url: str) -> str:
    arn: str = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return arn
