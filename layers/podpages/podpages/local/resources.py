"""The buckets, the queue, its dead-letter queue and the S3 notifications of template.yaml, made locally."""

import json
from dataclasses import dataclass

from podpages.local import template

# A failed batch comes back after this, not the template's 365 s, so retries show within seconds.
VISIBILITY_TIMEOUT = 10


@dataclass(frozen=True)
class LocalResources:
    source_bucket: str
    site_bucket: str
    queue_url: str
    dead_letter_queue_url: str


def create_resources(
    s3, sqs, source_bucket: str, site_bucket: str, visibility_timeout: int = VISIBILITY_TIMEOUT
) -> LocalResources:
    for bucket in (source_bucket, site_bucket):
        s3.create_bucket(Bucket=bucket)
    dead_letters = sqs.create_queue(QueueName="podpages-render-dlq")["QueueUrl"]
    redrive = {
        "deadLetterTargetArn": queue_arn(sqs, dead_letters),
        "maxReceiveCount": str(template.max_receive_count()),
    }
    queue = sqs.create_queue(
        QueueName="podpages-render-queue",
        Attributes={"VisibilityTimeout": str(visibility_timeout), "RedrivePolicy": json.dumps(redrive)},
    )["QueueUrl"]
    s3.put_bucket_notification_configuration(
        Bucket=source_bucket, NotificationConfiguration=template.queue_notifications(queue_arn(sqs, queue))
    )
    return LocalResources(source_bucket, site_bucket, queue, dead_letters)


def queue_arn(sqs, queue_url: str) -> str:
    return sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
