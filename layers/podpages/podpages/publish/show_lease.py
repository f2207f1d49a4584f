"""One publish of a show at a time.

Two invocations folding the same show would each write pages from their own catalog read, and a
reader could see the feed lose an episode until the loser of the commit race rewrites it. So a
publish holds the show's lease, `locks/<show>.json` in the source bucket, taken with a conditional
write. A lease whose holder vanished (a timed-out function never releases) expires, and is taken
over with a conditional write over the version read, so two waiters cannot both take it. Its holder
releases it with the request that deletes what the publish retired (`RetiredObjects`), or alone.
"""

import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from podpages.errors import ShowBusy
from podpages.observability import logger
from podpages.storage.held_lease import HeldLease
from podpages.storage.source_bucket import SourceBucket, lease_key

# Longer than RenderFunction's timeout (120 s), so a live holder never loses its lease.
LEASE_SECONDS = 150
WAIT_SECONDS = 20  # then the show's messages fail and come back after the queue's visibility timeout
POLL_SECONDS = 0.2


@contextmanager
def show_lease(
    source: SourceBucket,
    show: str,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], None] = time.sleep,
    wait: float = WAIT_SECONDS,
) -> Iterator[HeldLease]:
    lease = HeldLease(lease_key(show), _take(source, show, clock, sleep, wait))
    try:
        yield lease
    finally:
        if not lease.released:
            source.delete_lease(show, lease.etag)


def _take(
    source: SourceBucket, show: str, clock: Callable[[], float], sleep: Callable[[float], None], wait: float
) -> str:
    deadline = clock() + wait
    held: str | None = None  # the ETag of a lease that has expired, to take over
    while True:
        body = json.dumps({"holder": str(uuid.uuid4()), "expires": clock() + LEASE_SECONDS}).encode()
        if etag := source.write_lease(show, body, held):
            return etag
        current = source.read_lease(show)
        held = current.etag if current and json.loads(current.body)["expires"] < clock() else None
        if held:
            logger.warning("show lease expired; taking it over", show=show)
        elif clock() >= deadline:
            raise ShowBusy(show)
        elif current:
            sleep(POLL_SECONDS)
