"""RenderFunction: S3 upload notifications, from SQS or direct, become published pages."""

import boto3
from botocore.config import Config

from podpages.observability import logger, metrics, tracer
from podpages.publisher import Publisher
from podpages.render_function import handle_render_event
from podpages.settings import Settings
from podpages.storage import WRITE_CONCURRENCY, Distribution, SiteBucket, SourceBucket

settings = Settings.from_env()
s3 = boto3.client("s3", config=Config(retries={"mode": "standard"}, max_pool_connections=WRITE_CONCURRENCY))
distribution = Distribution(boto3.client("cloudfront"), settings.distribution_id) if settings.distribution_id else None
publisher = Publisher(
    SourceBucket(s3, settings.source_bucket), SiteBucket(s3, settings.site_bucket), settings, distribution=distribution
)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict, context) -> dict:
    return handle_render_event(event, publisher)
