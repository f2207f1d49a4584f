"""NearbyFunction: an episode's nearby listing over HTTP, as JSON or as its page's HTML section."""

from typing import Any

import boto3
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config

from podpages.nearby.api import nearby_api
from podpages.nearby.cache import CatalogCache
from podpages.observability import logger, metrics, tracer
from podpages.settings import Settings
from podpages.storage.source_bucket import SourceBucket

settings = Settings.from_env()
s3 = boto3.client("s3", config=Config(retries={"mode": "standard"}))
catalogs = CatalogCache(SourceBucket(s3, settings.source_bucket))
app = nearby_api(catalogs, settings)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
