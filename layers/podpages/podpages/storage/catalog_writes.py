"""What a catalog's commit writes before its index, several objects at once."""

from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from threading import BoundedSemaphore
from types import TracebackType
from typing import Self

from podpages.storage.source_bucket import SourceBucket

WRITERS = 8  # objects written at once
QUEUED = 2 * WRITERS  # objects held at once, written or waiting to be


class CatalogWrites:
    """The frozen pages and years' listings a commit writes before its index, each named
    by its content. They go several at once, and each call waits while QUEUED are held, so that a
    publish that rewrites every page after a removal holds a few pages' bytes at a time, not all of
    them. Held in a `with` block, every write has ended at its end: the first that failed raises
    there, once the others are done, so the index is never written over a page that is missing."""

    def __init__(self, source: SourceBucket):
        self.source = source
        self.pages: set[str] = set()  # names of the pages and listings written
        self._held = BoundedSemaphore(QUEUED)
        self._writes: list[Future[None]] = []
        self._writers = ThreadPoolExecutor(max_workers=WRITERS)

    def catalog_page(self, show: str, name: str, body: bytes) -> None:
        """A frozen page or a year's listing."""
        self.pages.add(name)
        self._write(self.source.write_catalog_page, show, name, body)

    def _write[**Arguments](
        self, write: Callable[Arguments, None], *arguments: Arguments.args, **named: Arguments.kwargs
    ) -> None:
        self._held.acquire()
        future = self._writers.submit(write, *arguments, **named)
        future.add_done_callback(lambda _done: self._held.release())
        self._writes.append(future)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        failed = None
        if error is None:
            done, _pending = wait(self._writes, return_when=FIRST_EXCEPTION)
            failed = next((future.exception() for future in done if future.exception() is not None), None)
        # After a failure, here or in the publish, the writes not begun are of no use: no index will name them.
        self._writers.shutdown(wait=True, cancel_futures=error is not None or failed is not None)
        if failed is not None:
            raise failed
