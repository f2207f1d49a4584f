"""The one Logger, Tracer and Metrics. Their service name and namespace come from the
environment, which template.yaml's Globals set (POWERTOOLS_SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE)."""

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger()
# Only botocore: its S3, SQS and CloudFront calls are what the functions wait on, and patching
# everything X-Ray supports (requests, httplib, sqlite3, ...) would cost more of the cold start.
tracer = Tracer(patch_modules=("botocore",))
metrics = Metrics()

__all__ = ["MetricUnit", "logger", "metrics", "tracer"]
