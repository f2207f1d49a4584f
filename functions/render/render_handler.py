"""RenderFunction: S3 upload notifications, from SQS or direct, become published pages."""

import gc

# Init builds modules, clients and settings that live as long as the process, so a collection
# during it finds nothing to free: it only costs the cold start. The collector is on again at the end.
gc.disable()

from typing import Any

from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config

from podpages.notify.notify_queue import NotifyQueue
from podpages.observability import logger, metrics, tracer
from podpages.publish.publisher import Publisher
from podpages.publish.render_function import handle_render_event
from podpages.settings import Settings
from podpages.storage.aws_clients import aws_client
from podpages.storage.distribution import Distribution
from podpages.storage.site_bucket import WRITE_CONCURRENCY, SiteBucket
from podpages.storage.source_bucket import SourceBucket

settings = Settings.from_env()
s3 = aws_client("s3", config=Config(retries={"mode": "standard"}, max_pool_connections=WRITE_CONCURRENCY))
distribution = Distribution(aws_client("cloudfront"), settings.distribution_id) if settings.distribution_id else None
notify_queue = NotifyQueue(aws_client("sqs"), settings.notify_queue_url) if settings.notify_queue_url else None
publisher = Publisher(
    SourceBucket(s3, settings.source_bucket),
    SiteBucket(s3, settings.site_bucket),
    settings,
    distribution=distribution,
    notify_queue=notify_queue,
)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse | dict[str, Any]:
    return handle_render_event(event, publisher, lambda: context.get_remaining_time_in_millis() / 1000)


gc.enable()
