"""NearbyFunction: an episode's nearby listing over HTTP, as JSON or as its page's HTML section."""

import boto3
from aws_lambda_powertools.logging import correlation_paths
from botocore.config import Config

from podpages.catalog_cache import CatalogCache
from podpages.nearby_api import nearby_api
from podpages.observability import logger, metrics, tracer
from podpages.settings import Settings
from podpages.storage import SourceBucket

settings = Settings.from_env()
s3 = boto3.client("s3", config=Config(retries={"mode": "standard"}))
catalogs = CatalogCache(SourceBucket(s3, settings.source_bucket))
app = nearby_api(catalogs, settings)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict, context) -> dict:
    return app.resolve(event, context)
