"""Where the CLI publishes: the local stack by default, or a deployed stack on AWS."""

from dataclasses import dataclass
from typing import Any

import boto3
from botocore.config import Config

from podpages.errors import UsageError
from podpages.local import LOCAL_ENDPOINT
from podpages.local.aws import local_client
from podpages.local.template import function_environment


@dataclass(frozen=True)
class Target:
    s3: Any
    sqs: Any
    source_bucket: str
    site_bucket: str | None = None
    queue_url: str | None = None
    dead_letter_queue_url: str | None = None
    rebuild_queue_url: str | None = None
    endpoint: str | None = None  # set for the local stack

    @property
    def label(self) -> str:
        return f"the local stack at {self.endpoint}" if self.endpoint else f"s3://{self.source_bucket}"


def local_target(endpoint: str = LOCAL_ENDPOINT) -> Target:
    """The local stack that `make demo` runs, with the buckets events/env.json names."""
    # Fail fast when nothing answers: a local stack is either running or not.
    config = Config(connect_timeout=2, retries={"mode": "standard", "max_attempts": 2})
    s3, sqs = local_client("s3", endpoint, config), local_client("sqs", endpoint, config)
    names = function_environment("RenderFunction")
    return Target(
        s3,
        sqs,
        names["SOURCE_BUCKET"],
        names["SITE_BUCKET"],
        _queue_url(sqs, "podpages-render-queue"),
        _queue_url(sqs, "podpages-render-dlq"),
        _queue_url(sqs, "podpages-rebuild-queue"),
        endpoint=endpoint,
    )


def aws_target(
    profile: str | None = None,
    region: str | None = None,
    stack: str | None = None,
    source_bucket: str | None = None,
    site_bucket: str | None = None,
    queue_url: str | None = None,
    dead_letter_queue_url: str | None = None,
    rebuild_queue_url: str | None = None,
) -> Target:
    """A deployed stack, by its name (its outputs name the rest) or by its buckets and queues."""
    session = boto3.Session(profile_name=profile, region_name=region)
    if stack:
        outputs = {
            output["OutputKey"]: output["OutputValue"]
            for output in session.client("cloudformation").describe_stacks(StackName=stack)["Stacks"][0]["Outputs"]
        }
        source_bucket = source_bucket or outputs["SourceBucketName"]
        site_bucket = site_bucket or outputs.get("SiteBucketName")
        queue_url = queue_url or outputs.get("RenderQueueUrl")
        dead_letter_queue_url = dead_letter_queue_url or outputs.get("RenderDeadLetterQueueUrl")
        rebuild_queue_url = rebuild_queue_url or outputs.get("RebuildQueueUrl")
    if not source_bucket:
        raise UsageError("name a stack (--stack) or a source bucket (--source-bucket) to publish to AWS")
    return Target(
        session.client("s3"),
        session.client("sqs"),
        source_bucket,
        site_bucket,
        queue_url,
        dead_letter_queue_url,
        rebuild_queue_url,
    )


def _queue_url(sqs: Any, name: str) -> str | None:
    try:
        url: str = sqs.get_queue_url(QueueName=name)["QueueUrl"]
    except sqs.exceptions.QueueDoesNotExist:
        return None
    return url
