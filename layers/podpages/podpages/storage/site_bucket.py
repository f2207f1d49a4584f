"""The published site, in the private bucket CloudFront serves."""

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.exceptions import ClientError

from podpages.errors import WriteConflict
from podpages.render.site_objects import Plan, SiteObject
from podpages.storage.s3 import Stored, lost_race, only_over, read_stored

# Enough to cover an episode, its neighbours and the show's listings in one round.
WRITE_CONCURRENCY = 16


class SiteBucket:
    def __init__(self, client: Any, name: str):
        self.client = client
        self.name = name

    def read(self, key: str) -> Stored | None:
        return read_stored(self.client, self.name, key)

    def put(self, item: SiteObject, **condition: str) -> None:
        self.client.put_object(
            Bucket=self.name,
            Key=item.key,
            Body=item.body,
            ContentType=item.content_type,
            CacheControl=item.cache_control,
            **condition,
        )

    def replace(self, key: str, plan: Plan, etag: str | None) -> None:
        """Apply `plan`, writing or deleting `key` first and only over the version read with `etag`
        (only where none exists, when None); the rest follows once that has succeeded."""
        guarded = next((item for item in plan.puts if item.key == key), None)
        try:
            if guarded is not None:
                self.put(guarded, **only_over(etag))
            elif etag is not None:
                self.client.delete_object(Bucket=self.name, Key=key, IfMatch=etag)
        except ClientError as error:
            if lost_race(error):
                raise WriteConflict(key) from error
            raise
        self.apply([item for item in plan.puts if item.key != key], [other for other in plan.deletes if other != key])

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.name, Key=key)

    def apply(self, puts: list[SiteObject], deletes: list[str]) -> None:
        """Write and delete concurrently; the first failure is raised once all have finished."""
        with ThreadPoolExecutor(max_workers=WRITE_CONCURRENCY) as pool:
            futures = [pool.submit(self.put, item) for item in puts]
            futures += [pool.submit(self.delete, key) for key in deletes]
        for future in futures:
            future.result()
