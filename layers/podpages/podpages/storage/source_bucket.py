"""The private source bucket: uploads, the shows' catalogs and leases, and error reports."""

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from functools import partial
from typing import Any

from botocore.exceptions import ClientError

from podpages.catalog.stored import NearbyPage, part_holder_name
from podpages.contract.source_keys import CATALOG_PREFIX, ERRORS_PREFIX, LEASES_PREFIX, MAX_DOCUMENT_BYTES, is_slug
from podpages.errors import CatalogConflict
from podpages.storage.error_reports import ErrorReport, error_report_key
from podpages.storage.joined_body import JoinedBody, Pieces
from podpages.storage.s3 import (
    Stored,
    StoredLines,
    Unchanged,
    delete_keys,
    error_code,
    get_object,
    lost_race,
    only_over,
    read_lines,
    read_stored,
)

JSON_LINES = "application/jsonl"  # the index's lines (`catalog.layout`)
# Bytes of the catalog read at first for its first line, the nearby index: about 180 KB at 10,000
# episodes. A longer line is read on, twice as much again each time.
FIRST_LINE_BYTES = 256 * 1024
MAX_LINE_READS = 4  # times the first line is read again when a commit replaced the catalog meanwhile
PAGE_READERS = 8  # frozen pages read at once: a whole show of 100,000 episodes is 1,000 of them
PAGES_AHEAD = 2 * PAGE_READERS  # pages read, or being read, before the reader asks for them


class SourceBucket:
    def __init__(self, client: Any, name: str):
        self.client = client
        self.name = name

    def read_upload(self, key: str, limit: int = MAX_DOCUMENT_BYTES) -> bytes | None:
        """The upload's bytes, or None when it is gone. Reads at most `limit` bytes and one more, so
        that size is checked cheaply: 1 MiB for JSON, 5 MiB for a companion transcript."""
        try:
            response = get_object(self.client, self.name, key, Range=f"bytes=0-{limit}")
        except ClientError as error:
            if error_code(error) == "InvalidRange":  # an empty object has no byte 0
                return b""
            raise
        return None if response is None else bytes(response["Body"].read())

    def uploads_present(self, keys: Iterable[str]) -> set[str]:
        """Those of `keys` whose upload is in the bucket now, asked a few at a time."""
        asked = sorted(set(keys))
        if not asked:
            return set()
        with ThreadPoolExecutor(max_workers=PAGE_READERS) as askers:
            present = list(askers.map(self._holds_upload, asked))
        return {key for key, there in zip(asked, present, strict=True) if there}

    def _holds_upload(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.name, Key=key)
        except ClientError as error:
            if error_code(error) in ("404", "NoSuchKey"):
                return False
            raise
        return True

    def read_catalog(self, show: str, held_etag: str | None = None) -> Stored | None:
        """The show's catalog as stored, or None when it has none. Given the ETag of a copy the
        caller holds, an unchanged catalog is not sent again: `Unchanged` is raised instead."""
        return self._read_held(catalog_key(show), held_etag)

    def read_catalog_lines(self, show: str) -> StoredLines | None:
        """The show's catalog as stored, a line at a time as it arrives (`catalog.layout`)."""
        return read_lines(self.client, self.name, catalog_key(show))

    def read_nearby_index(self, show: str, held_etag: str | None = None) -> Stored | None:
        """The show's nearby index (`catalog.nearby_index`), as `read_catalog` reads the catalog."""
        return self._read_held(nearby_index_key(show), held_etag)

    def read_first_line(self, show: str, held_etag: str | None = None) -> Stored | None:
        """The first line of the show's catalog, read by range: its nearby index (`catalog.layout`),
        or the start of a catalog an earlier podpages stored; None when it has none. As `read_catalog`
        reads the catalog, given the ETag of a copy the caller holds. A line longer than the first
        read is read on, from the same version of the object: from another, it is read again."""
        key = catalog_key(show)
        for _attempt in range(MAX_LINE_READS):
            stored = self._read_held(key, held_etag, Range=f"bytes=0-{FIRST_LINE_BYTES - 1}")
            if stored is None:
                return None
            body, wanted = stored.body, FIRST_LINE_BYTES
            while b"\n" not in body and len(body) == wanted:  # a longer line, and more of the object
                if (more := self._read_on(key, len(body), stored.etag)) is None:
                    break
                body, wanted = body + more, 2 * len(body)
            else:
                return Stored(body.split(b"\n", 1)[0], stored.etag)
        raise CatalogConflict(show)

    def _read_on(self, key: str, start: int, etag: str) -> bytes | None:
        """As many bytes again as `start`, from there, of the object while it has `etag`: b"" past
        its end; None once it is replaced."""
        try:
            stored = read_stored(self.client, self.name, key, Range=f"bytes={start}-{2 * start - 1}", IfMatch=etag)
        except ClientError as error:
            if error_code(error) == "InvalidRange":
                return b""
            if lost_race(error):
                return None
            raise
        return None if stored is None else stored.body

    def _read_held(self, key: str, held_etag: str | None, **options: str) -> Stored | None:
        if held_etag:
            options["IfNoneMatch"] = held_etag
        try:
            return read_stored(self.client, self.name, key, **options)
        except ClientError as error:
            if error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") == 304:
                raise Unchanged(key) from None
            raise

    def write_catalog(self, show: str, body: Pieces | None, etag: str | None) -> None:
        """Commit the show's catalog index (`catalog.layout`), made a line at a time as it is sent,
        or delete it (None), if nobody has since the read that gave `etag`."""
        key = catalog_key(show)
        try:
            if body is None:
                if etag is not None:
                    self.client.delete_object(Bucket=self.name, Key=key, IfMatch=etag)
                return
            self.client.put_object(
                Bucket=self.name, Key=key, Body=JoinedBody(body), ContentType=JSON_LINES, **only_over(etag)
            )
        except ClientError as error:
            if lost_race(error):
                raise CatalogConflict(show) from error
            raise

    def write_catalog_page(self, show: str, name: str, body: bytes) -> None:
        """A frozen page or a year's listing of the show's catalog, named by its content: written before
        the index that names it."""
        self.client.put_object(
            Bucket=self.name, Key=catalog_page_key(show, name), Body=body, ContentType="application/json"
        )

    def read_catalog_pages(self, show: str, names: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """Frozen pages and years' listings of the show's catalog, by name, each as it is read, in the
        order named; None for one that is gone. They are read a few at a time, and no further ahead
        than a few more: a reader that parses each as it comes holds a few pages' bytes, not all."""
        read = partial(read_stored, self.client, self.name)
        with ThreadPoolExecutor(max_workers=PAGE_READERS) as readers:
            reading: deque[tuple[str, Future[Stored | None]]] = deque()
            for name in names:
                reading.append((name, readers.submit(read, catalog_page_key(show, name))))
                if len(reading) > PAGES_AHEAD:
                    yield _body(*reading.popleft())
            while reading:
                yield _body(*reading.popleft())

    def delete_catalog_pages(self, show: str, names: Iterable[str]) -> None:
        self.delete(sorted(catalog_page_key(show, name) for name in names))

    def write_lease(self, show: str, body: bytes, etag: str | None) -> str | None:
        """Create the show's lease, or replace the version read with `etag`; its new ETag, or None
        when someone else's write came first."""
        try:
            response = self.client.put_object(Bucket=self.name, Key=lease_key(show), Body=body, **only_over(etag))
        except ClientError as error:
            if lost_race(error):
                return None
            raise
        return str(response["ETag"])

    def read_lease(self, show: str) -> Stored | None:
        return read_stored(self.client, self.name, lease_key(show))

    def leases(self) -> dict[str, Stored]:
        """Every show's lease in place, by show: held, or left behind by a holder that failed or was
        cut short."""
        found = {}
        for key, _written in self._list(LEASES_PREFIX):
            if (stored := read_stored(self.client, self.name, key)) is not None:  # released since the listing
                found[key.removeprefix(LEASES_PREFIX).removesuffix(".json")] = stored
        return found

    def delete_lease(self, show: str, etag: str) -> None:
        """Remove our lease, unless it has since been taken over."""
        try:
            self.client.delete_object(Bucket=self.name, Key=lease_key(show), IfMatch=etag)
        except ClientError as error:
            if not lost_race(error):
                raise

    def list_shows(self) -> set[str]:
        """Every show with a catalog: the shows the site publishes. A catalog's key names a slug, which
        has no dot, so a nearby index beside it (`<show>.nearby.json`) is never taken for a show."""
        names = {key.removeprefix(CATALOG_PREFIX).removesuffix(".json") for key, _ in self._list(CATALOG_PREFIX)}
        return {name for name in names if is_slug(name)}

    def read_nearby_part(self, show: str, number: int, page: NearbyPage) -> bytes | None:
        """A frozen page's part of the show's nearby index, as the index names it: the head of the
        page's object, read by range, or an object of its own (an index of version 2); None once a
        newer index no longer names it."""
        ranged = {"Range": f"bytes=0-{page.head - 1}"} if page.head else {}
        stored = read_stored(self.client, self.name, catalog_page_key(show, part_holder_name(number, page)), **ranged)
        return None if stored is None else stored.body

    def write_error_report(self, report: ErrorReport) -> None:
        self.client.put_object(
            Bucket=self.name,
            Key=error_report_key(report.key),
            Body=report.to_json(),
            ContentType="application/json; charset=utf-8",
        )

    def read_error_report(self, key: str) -> ErrorReport | None:
        """The report on the upload at `key`, if it has one."""
        stored = read_stored(self.client, self.name, error_report_key(key))
        return None if stored is None else ErrorReport.from_json(stored.body)

    def newest_error_reports(self, count: int) -> tuple[int, list[tuple[datetime, ErrorReport]]]:
        """How many reports there are, and the newest `count` of them with when each was written."""
        listed = sorted(self._list(ERRORS_PREFIX), key=lambda item: item[1], reverse=True)
        newest = []
        for report_key, written in listed[:count]:
            stored = read_stored(self.client, self.name, report_key)
            if stored is not None:  # cleared since the listing
                newest.append((written, ErrorReport.from_json(stored.body)))
        return len(listed), newest

    def delete_error_reports(self, keys: list[str]) -> None:
        """Clear the reports of uploads that have since been accepted, in as few requests as S3 allows."""
        self.delete(sorted({error_report_key(key) for key in keys}))

    def delete(self, keys: list[str], etags: Mapping[str, str] | None = None) -> set[str]:
        """Delete `keys`, in as few requests as S3 allows: none for none; each key in `etags` only
        while it has that ETag. The keys S3 did not delete: each stays, unnamed, as one a failed
        publish leaves."""
        return {error["Key"] for error in delete_keys(self.client, self.name, keys, etags)}

    def _list(self, prefix: str) -> list[tuple[str, datetime]]:
        paginator = self.client.get_paginator("list_objects_v2")
        return [
            (item["Key"], item["LastModified"])
            for page in paginator.paginate(Bucket=self.name, Prefix=prefix)
            for item in page.get("Contents", [])
        ]


def _body(name: str, reading: Future[Stored | None]) -> tuple[str, bytes | None]:
    stored = reading.result()
    return name, None if stored is None else stored.body


def catalog_key(show: str) -> str:
    return f"{CATALOG_PREFIX}{show}.json"


def nearby_index_key(show: str) -> str:
    return f"{CATALOG_PREFIX}{show}.nearby.json"


def catalog_page_key(show: str, name: str) -> str:
    return f"{CATALOG_PREFIX}{show}/{name}"


def lease_key(show: str) -> str:
    return f"{LEASES_PREFIX}{show}.json"
