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

try:  # The Lambda Python runtime has it; SnapStart runs what it registers after each restore.
    from snapshot_restore_py import register_after_restore
except ImportError:  # elsewhere nothing is ever restored from a snapshot
    register_after_restore = None


def s3_client() -> Any:
    return boto3.client("s3", config=Config(retries={"mode": "standard"}))


settings = Settings.from_env()
s3 = s3_client()
catalogs = CatalogCache(SourceBucket(s3, settings.source_bucket))
app = nearby_api(catalogs, settings)


def restored() -> None:
    """With SnapStart, many copies resume from one snapshot: each gets an S3 client of its own
    (connections are not shared) and holds no catalog read before the snapshot."""
    global s3
    s3 = s3_client()
    catalogs.restore(SourceBucket(s3, settings.source_bucket))


if register_after_restore is not None:
    register_after_restore(restored)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
