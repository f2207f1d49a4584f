import os

import pytest

from support.events import function_environment

# As in Lambda, the environment is set before the first import of the layer's code:
# Logger and Metrics read their service name and namespace once, when created.
for _name in ("POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE"):
    os.environ.setdefault(_name, function_environment("RenderFunction")[_name])

from podpages.observability import metrics  # noqa: E402

TIERS = ("unit", "integration", "acceptance")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test carries the marker of its tier, its folder under tests/, so `-m integration` selects them."""
    for item in items:
        tier = item.path.relative_to(item.config.rootpath / "tests").parts[0]
        if tier in TIERS:
            item.add_marker(tier)


@pytest.fixture(autouse=True)
def clear_metrics():
    """Metrics accumulate across calls in one process; every test starts with none."""
    metrics.clear_metrics()
    yield
    metrics.clear_metrics()
