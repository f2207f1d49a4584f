import pytest

from podpages.observability import metrics


@pytest.fixture(autouse=True)
def clear_metrics():
    """Metrics accumulate across calls in one process; every test starts with none."""
    metrics.clear_metrics()
    yield
    metrics.clear_metrics()
