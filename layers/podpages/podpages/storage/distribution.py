"""The CloudFront distribution in front of the site bucket."""

import uuid
from typing import Any


class Distribution:
    def __init__(self, client: Any, distribution_id: str):
        self.client = client
        self.id = distribution_id

    def invalidate(self, paths: list[str]) -> None:
        self.client.create_invalidation(
            DistributionId=self.id,
            InvalidationBatch={"Paths": {"Quantity": len(paths), "Items": paths}, "CallerReference": str(uuid.uuid4())},
        )
