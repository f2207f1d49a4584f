"""The buckets, the render and rebuild queues, their dead-letter queue and the S3 notifications of
template.yaml, made locally."""

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

    def queue_urls(self) -> dict[str, str]:
        """Each queue's URL by its logical id in template.yaml."""
        return {"RenderQueue": self.queue_url, "RebuildQueue": self.rebuild_queue_url}


def create_resources(
    s3: Any, sqs: Any, source_bucket: str, site_bucket: str, visibility_timeout: int = VISIBILITY_TIMEOUT
) -> LocalResources:
    for bucket in (source_bucket, site_bucket):
        s3.create_bucket(Bucket=bucket)
    dead_letters = sqs.create_queue(QueueName="podpages-render-dlq")["QueueUrl"]
    redrive = {
        "deadLetterTargetArn": queue_arn(sqs, dead_letters),
        "maxReceiveCount": str(template.max_receive_count()),
    }
    queue, rebuilds = (
        sqs.create_queue(
            QueueName=name,
            Attributes={"VisibilityTimeout": str(visibility_timeout), "RedrivePolicy": json.dumps(redrive)},
        )["QueueUrl"]
        for name in ("podpages-render-queue", "podpages-rebuild-queue")
    )
    s3.put_bucket_notification_configuration(
        Bucket=source_bucket, NotificationConfiguration=template.queue_notifications(queue_arn(sqs, queue))
    )
    return LocalResources(source_bucket, site_bucket, queue, dead_letters, rebuilds)


def queue_arn(sqs: Any, queue_url: str) -> str:
    arn: str = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return arn
