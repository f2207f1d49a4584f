"""The one Logger and the one Metrics. Their service name and namespace come from the
environment, which template.yaml's Globals set (POWERTOOLS_SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE)."""

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger()
metrics = Metrics()

__all__ = ["MetricUnit", "logger", "metrics"]
