"""What a publish leaves behind in the source bucket, deleted together once it is done, with the
show's lease."""

from collections.abc import Iterable
from contextlib import suppress
from types import TracebackType
from typing import Self

from botocore.exceptions import BotoCoreError, ClientError

from podpages.storage.error_reports import error_report_key
from podpages.storage.held_lease import HeldLease
from podpages.storage.source_bucket import SourceBucket, catalog_page_key, nearby_index_key


class RetiredObjects:
    """The frozen pages and years' listings a commit replaced, the nearby index an earlier podpages
    stored apart, the error reports of uploads a publish settled. Each is added once nothing names it
    any more, and all go in one DeleteObjects request at the publish's end, where each kind made its
    own. Held in a `with` block, they go at its end, whether the publish succeeds or fails: a failure
    after the commit still deletes what the commit replaced. A nearby reader holding the index before
    it finds a page gone, and reads the index again.

    The request releases the show's `lease` too, on the condition that it is still the version its
    holder took (S3's conditional DeleteObjects), so that a publish whose lease was taken over never
    releases its successor's; where the request does not release it, the lease's holder does. A
    lease whose holder may have left pages ahead of the catalog is left to it to hand over."""

    def __init__(self, source: SourceBucket, lease: HeldLease | None = None):
        self.source = source
        self.lease = lease
        self.keys: set[str] = set()

    def catalog_pages(self, show: str, names: Iterable[str]) -> None:
        """Objects in the show's folder beside its index, by name."""
        self.keys |= {catalog_page_key(show, name) for name in names}

    def nearby_index(self, show: str) -> None:
        """The show's nearby index as an object of its own, `catalog/<show>.nearby.json`, which an
        earlier podpages wrote: the index's first line holds it now."""
        self.keys.add(nearby_index_key(show))

    def error_reports(self, upload_keys: Iterable[str]) -> None:
        """The reports on these uploads, whether or not they have one."""
        self.keys |= {error_report_key(key) for key in upload_keys}

    def delete(self) -> None:
        keys, self.keys = self.keys, set()
        # A lease whose holder may have left pages ahead of the catalog is handed over, not released.
        lease = self.lease if self.lease and not self.lease.released and not self.lease.unsettled else None
        etags = {lease.key: lease.etag} if lease else {}
        undeleted = self.source.delete(sorted(keys | etags.keys()), etags)
        if lease and lease.key not in undeleted:
            lease.released = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if error is None:
            self.delete()
            return
        # The publish's own error is the one to raise: should S3 fail this too, they stay, unread.
        with suppress(BotoCoreError, ClientError):
            self.delete()
