"""What a publish leaves behind in the source bucket, deleted together once it is done."""

from collections.abc import Iterable
from contextlib import suppress
from types import TracebackType
from typing import Self

from botocore.exceptions import BotoCoreError, ClientError

from podpages.storage.error_reports import error_report_key
from podpages.storage.source_bucket import SourceBucket, catalog_page_key, nearby_part_key


class RetiredObjects:
    """The frozen pages and years' listings a commit replaced, the nearby parts a nearby index
    stopped naming, the error reports of uploads a publish settled. Each is added once nothing
    names it any more, and all go in one DeleteObjects request at the publish's end, where each
    kind made its own. Held in a `with` block, they go at its end, whether the publish succeeds or
    fails: a failure after the commit still deletes what the commit replaced."""

    def __init__(self, source: SourceBucket):
        self.source = source
        self.keys: set[str] = set()

    def catalog_pages(self, show: str, names: Iterable[str]) -> None:
        self.keys |= {catalog_page_key(show, name) for name in names}

    def nearby_parts(self, show: str, parts: Iterable[tuple[int, str]]) -> None:
        """The parts, by page and digest."""
        self.keys |= {nearby_part_key(show, page, digest) for page, digest in parts}

    def error_reports(self, upload_keys: Iterable[str]) -> None:
        """The reports on these uploads, whether or not they have one."""
        self.keys |= {error_report_key(key) for key in upload_keys}

    def delete(self) -> None:
        keys, self.keys = sorted(self.keys), set()
        self.source.delete(keys)

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
