"""NearbyFunction: an episode's nearby listing over HTTP, as JSON or as its page's HTML section."""

import gc

# Init builds modules, clients and settings that live as long as the process, so a collection
# during it finds nothing to free: it only costs the cold start. The collector is on again at the end.
gc.disable()

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from botocore.config import Config

from podpages.nearby.api import nearby_api
from podpages.nearby.cache import CatalogCache
from podpages.observability import logger, metrics, tracer
from podpages.settings import Settings
from podpages.snapstart import after_restore
from podpages.storage.aws_clients import aws_client
from podpages.storage.source_bucket import SourceBucket


def source_bucket(new_session: bool = False) -> SourceBucket:
    client = aws_client("s3", config=Config(retries={"mode": "standard"}), new_session=new_session)
    return SourceBucket(client, settings.source_bucket)


settings = Settings.from_env()
catalogs = CatalogCache(source_bucket())
app = nearby_api(catalogs, settings)
# With SnapStart, copies resume from one snapshot: each gets its own session and S3 client, with the
# credentials of its own environment, and no catalog held before it.
after_restore(lambda: catalogs.restore(source_bucket(new_session=True)))


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)


gc.enable()
