"""RebuildFunction: the SiteRebuild custom resource. A deploy that changes what pages are made of
queues a rebuild of every show."""

import gc

# Init builds modules, clients and settings that live as long as the process, so a collection
# during it finds nothing to free: it only costs the cold start. The collector is on again at the end.
gc.disable()

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config

from podpages.observability import logger, tracer
from podpages.rebuild.deploy import handle_deploy_event
from podpages.rebuild.queue import RebuildQueue
from podpages.settings import Settings
from podpages.storage.aws_clients import aws_client
from podpages.storage.source_bucket import SourceBucket

settings = Settings.from_env()
config = Config(retries={"mode": "standard"})
source = SourceBucket(aws_client("s3", config=config), settings.source_bucket)
queue = RebuildQueue(aws_client("sqs", config=config), settings.rebuild_queue_url)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return handle_deploy_event(event, source, queue)


gc.enable()
