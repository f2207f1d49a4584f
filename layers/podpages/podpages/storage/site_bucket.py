"""The published site, in the private bucket CloudFront serves."""

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.exceptions import ClientError

from podpages.errors import PodpagesError, WriteConflict
from podpages.render.site_objects import Plan, Published, StreamedObject
from podpages.storage import streamed_upload
from podpages.storage.s3 import Stored, delete_keys, get_object, lost_race, only_over, read_stored

# An object is read for its digest in pieces of this size, never whole.
READ_CHUNK = 1024 * 1024

# Enough to cover an episode, its neighbours and the show's listings in one round.
WRITE_CONCURRENCY = 16
# Each streamed object holds a part of its upload and a run of rendered items while it is written
# (tens of megabytes at the contract's maxima), and a rebuild may write a show's every feed archive.
# A feed archive takes about as long to render as its write waits on S3: with two at once, a removal
# that rewrites every archive after its episode waited on S3 for them, and with four it waits on the
# CPU (the removal of the oldest of 20,000 as on Lambda: 8.7 to 9.1 s, where it took 9.6 to 10.5 s).
STREAMS_AT_ONCE = 4


class DeleteFailed(PodpagesError):
    """Objects of the site that S3 did not delete, with what it said of each."""


class SiteBucket:
    def __init__(self, client: Any, name: str):
        self.client = client
        self.name = name

    def read(self, key: str) -> Stored | None:
        return read_stored(self.client, self.name, key)

    def sha256(self, key: str) -> str | None:
        """The SHA-256 of the object's bytes, read a piece at a time; None when there is no such key."""
        response = get_object(self.client, self.name, key)
        return None if response is None else streamed_upload.sha256(response["Body"].iter_chunks(READ_CHUNK))

    def put(self, item: Published, **condition: str) -> None:
        """Write `item`: a streamed one a part at a time, unless the write is conditional."""
        headers = {"ContentType": item.content_type, "CacheControl": item.cache_control}
        if isinstance(item, StreamedObject) and not condition:
            streamed_upload.upload(self.client, self.name, item.key, item.parts(), **headers)
        else:
            self.client.put_object(Bucket=self.name, Key=item.key, Body=item.body, **headers, **condition)

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

    def delete(self, keys: list[str]) -> None:
        """Delete `keys` in as few requests as S3 allows: an episode removed takes its page, its
        chapters and its transcript in one. A key S3 could not delete fails the publish, as a write
        that fails does, so that its retry deletes it."""
        if errors := delete_keys(self.client, self.name, keys):
            raise DeleteFailed(errors)

    def apply(self, puts: list[Published], deletes: list[str]) -> None:
        """Write and delete concurrently, streamed objects a few at a time; the first failure is
        raised once all have finished."""
        with (
            ThreadPoolExecutor(max_workers=WRITE_CONCURRENCY) as pool,
            ThreadPoolExecutor(max_workers=STREAMS_AT_ONCE) as streams,
        ):
            futures = [(streams if isinstance(item, StreamedObject) else pool).submit(self.put, item) for item in puts]
            futures += [pool.submit(self.delete, deletes)] if deletes else []
        for future in futures:
            future.result()
