"""The S3 adapter: the only module that talks to S3. Everything else sees catalogs and site objects."""

import hashlib
import json
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from botocore.exceptions import ClientError

from podpages.errors import CatalogConflict, WriteConflict
from podpages.site_objects import Plan, SiteObject
from podpages.source_keys import CATALOG_PREFIX, ERRORS_PREFIX, LEASES_PREFIX, MAX_DOCUMENT_BYTES

if TYPE_CHECKING:  # at run time the adapter moves bytes; the nearby API never loads the catalog models
    from podpages.catalog import Catalog

# Conditional writes lose with 412, with 409 when two race, and with 404 when the object they
# expected was deleted.
_CONFLICTS = {"PreconditionFailed", "ConditionalRequestConflict", "NoSuchKey"}
# Enough to cover an episode, its neighbours and the show's listings in one round.
WRITE_CONCURRENCY = 16
DELETE_BATCH = 1000  # the most keys DeleteObjects takes


MAX_KEY_BYTES = 1024  # S3's limit on an object key, in UTF-8
REPORT_SUFFIX = ".json"


@dataclass(frozen=True)
class Stored:
    body: bytes
    etag: str


class Unchanged(Exception):
    """The object still has the ETag the reader already holds (HTTP 304)."""


def _error_code(error: ClientError) -> str:
    return error.response.get("Error", {}).get("Code", "")


class SourceBucket:
    """Uploads, catalogs and error reports, in the private source bucket."""

    def __init__(self, client, name: str):
        self.client = client
        self.name = name

    def read_upload(self, key: str) -> bytes | None:
        """The upload's bytes, or None when it is gone. Reads at most 1 MiB and one byte, so size is checked cheaply."""
        try:
            response = _get(self.client, self.name, key, Range=f"bytes=0-{MAX_DOCUMENT_BYTES}")
        except ClientError as error:
            if _error_code(error) == "InvalidRange":  # an empty object has no byte 0
                return b""
            raise
        return None if response is None else response["Body"].read()

    def read_catalog(self, show: str, held_etag: str | None = None) -> Stored | None:
        """The show's catalog as stored, or None when it has none. Given the ETag of a copy the
        caller holds, an unchanged catalog is not sent again: `Unchanged` is raised instead."""
        options = {"IfNoneMatch": held_etag} if held_etag else {}
        try:
            response = _get(self.client, self.name, catalog_key(show), **options)
        except ClientError as error:
            if error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 304:
                raise Unchanged(catalog_key(show)) from None
            raise
        return None if response is None else Stored(response["Body"].read(), response["ETag"])

    def write_catalog(self, catalog: "Catalog", etag: str | None) -> None:
        """Commit `catalog` if nobody has since the read that gave `etag`; an empty one is deleted."""
        key = catalog_key(catalog.show)
        try:
            if catalog.is_empty:
                if etag is not None:
                    self.client.delete_object(Bucket=self.name, Key=key, IfMatch=etag)
                return
            condition = {"IfMatch": etag} if etag else {"IfNoneMatch": "*"}
            self.client.put_object(
                Bucket=self.name,
                Key=key,
                Body=catalog.model_dump_json().encode(),
                ContentType="application/json",
                **condition,
            )
        except ClientError as error:
            if _error_code(error) in _CONFLICTS:
                raise CatalogConflict(catalog.show) from error
            raise

    def write_lease(self, show: str, body: bytes, etag: str | None) -> str | None:
        """Create the show's lease, or replace the version read with `etag`; its new ETag, or None
        when someone else's write came first."""
        condition = {"IfMatch": etag} if etag else {"IfNoneMatch": "*"}
        try:
            response = self.client.put_object(Bucket=self.name, Key=lease_key(show), Body=body, **condition)
        except ClientError as error:
            if _error_code(error) in _CONFLICTS:
                return None
            raise
        return response["ETag"]

    def read_lease(self, show: str) -> Stored | None:
        response = _get(self.client, self.name, lease_key(show))
        return None if response is None else Stored(response["Body"].read(), response["ETag"])

    def delete_lease(self, show: str, etag: str) -> None:
        """Remove our lease, unless it has since been taken over."""
        try:
            self.client.delete_object(Bucket=self.name, Key=lease_key(show), IfMatch=etag)
        except ClientError as error:
            if _error_code(error) not in _CONFLICTS:
                raise

    def list_shows(self) -> set[str]:
        """Every show with a catalog: the shows the site publishes."""
        paginator = self.client.get_paginator("list_objects_v2")
        return {
            item["Key"].removeprefix(CATALOG_PREFIX).removesuffix(".json")
            for page in paginator.paginate(Bucket=self.name, Prefix=CATALOG_PREFIX)
            for item in page.get("Contents", [])
        }

    def write_error_report(self, key: str, report: dict) -> None:
        body = json.dumps(report, indent=2, ensure_ascii=False).encode()
        self.client.put_object(
            Bucket=self.name, Key=error_report_key(key), Body=body, ContentType="application/json; charset=utf-8"
        )

    def delete_error_reports(self, keys: list[str]) -> None:
        """Clear the reports of uploads that have since been accepted, in as few requests as S3 allows."""
        report_keys = sorted({error_report_key(key) for key in keys})
        for start in range(0, len(report_keys), DELETE_BATCH):
            objects = [{"Key": key} for key in report_keys[start : start + DELETE_BATCH]]
            self.client.delete_objects(Bucket=self.name, Delete={"Objects": objects, "Quiet": True})


class SiteBucket:
    """The published site, in the private bucket CloudFront serves."""

    def __init__(self, client, name: str):
        self.client = client
        self.name = name

    def read(self, key: str) -> Stored | None:
        response = _get(self.client, self.name, key)
        return None if response is None else Stored(response["Body"].read(), response["ETag"])

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
                self.put(guarded, **({"IfMatch": etag} if etag else {"IfNoneMatch": "*"}))
            elif etag is not None:
                self.client.delete_object(Bucket=self.name, Key=key, IfMatch=etag)
        except ClientError as error:
            if _error_code(error) in _CONFLICTS:
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


class Distribution:
    """The CloudFront distribution in front of the site bucket."""

    def __init__(self, client, distribution_id: str):
        self.client = client
        self.id = distribution_id

    def invalidate(self, paths: list[str]) -> None:
        self.client.create_invalidation(
            DistributionId=self.id,
            InvalidationBatch={"Paths": {"Quantity": len(paths), "Items": paths}, "CallerReference": str(uuid.uuid4())},
        )


def _get(client, bucket: str, key: str, **options) -> dict | None:
    """GetObject, or None when there is no such key."""
    try:
        return client.get_object(Bucket=bucket, Key=key, **options)
    except ClientError as error:
        if _error_code(error) == "NoSuchKey":
            return None
        raise


def catalog_key(show: str) -> str:
    return f"{CATALOG_PREFIX}{show}.json"


def lease_key(show: str) -> str:
    return f"{LEASES_PREFIX}{show}.json"


def error_report_key(key: str) -> str:
    """`errors/<key>.json`. An upload key too long for that to fit S3's limit keeps as much of
    its start as fits, then a hash of the whole, so that its report is still written."""
    report = f"{ERRORS_PREFIX}{key}{REPORT_SUFFIX}"
    if len(report.encode()) <= MAX_KEY_BYTES:
        return report
    digest = hashlib.sha256(key.encode()).hexdigest()
    room = MAX_KEY_BYTES - len(ERRORS_PREFIX) - len(REPORT_SUFFIX) - len(digest) - 1
    start = key.encode()[:room].decode(errors="ignore")  # never half a character
    return f"{ERRORS_PREFIX}{start}-{digest}{REPORT_SUFFIX}"
