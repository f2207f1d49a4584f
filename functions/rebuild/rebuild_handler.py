"""RebuildFunction: the SiteRebuild custom resource. A deploy that changes what pages are made of
queues a rebuild of every show."""

import boto3
from botocore.config import Config

from podpages.deploy_rebuild import handle_deploy_event
from podpages.observability import logger, tracer
from podpages.rebuild_queue import RebuildQueue
from podpages.settings import Settings
from podpages.storage import SourceBucket

settings = Settings.from_env()
config = Config(retries={"mode": "standard"})
source = SourceBucket(boto3.client("s3", config=config), settings.source_bucket)
queue = RebuildQueue(boto3.client("sqs", config=config), settings.rebuild_queue_url)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
def lambda_handler(event: dict, context) -> dict:
    return handle_deploy_event(event, source, queue)
