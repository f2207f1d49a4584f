"""One publish of a show at a time.

Two invocations folding the same show would each write pages from their own catalog read, and a
reader could see the feed lose an episode until the loser of the commit race rewrites it. So a
publish holds the show's lease, `locks/<show>.json` in the source bucket, taken with a conditional
write. A lease whose holder vanished (a timed-out function never releases) expires, and is taken
over with a conditional write over the version read, so two waiters cannot both take it. Its holder
releases it with the request that deletes what the publish retired (`RetiredObjects`), or alone.

The lease also records where the pages lie that its holder may write ahead of the catalog
(`PagesAhead`), in the write that takes it. A holder that fails while they may be ahead hands the
lease over, expired, with that record, where it would release it; the next holder takes the record
over with the lease.
"""

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

from botocore.exceptions import BotoCoreError, ClientError

from podpages.errors import ShowBusy
from podpages.observability import logger
from podpages.storage.held_lease import HeldLease
from podpages.storage.pages_ahead import PagesAhead
from podpages.storage.source_bucket import SourceBucket, lease_key

# Longer than RenderFunction's timeout (120 s), so a live holder never loses its lease.
LEASE_SECONDS = 150
WAIT_SECONDS = 20  # then the show's messages fail and come back after the queue's visibility timeout
POLL_SECONDS = 0.2
NOTHING_AHEAD = PagesAhead()


@contextmanager
def show_lease(
    source: SourceBucket,
    show: str,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], None] = time.sleep,
    wait: float = WAIT_SECONDS,
    ahead: PagesAhead = NOTHING_AHEAD,
) -> Iterator[HeldLease]:
    """The show's lease, recording `ahead`: where the pages lie that its holder may write ahead
    of the catalog."""
    lease = _take(source, show, clock, sleep, wait, ahead)
    try:
        yield lease
    finally:
        if lease.unsettled:
            _hand_over(source, show, lease)
        elif not lease.released:
            source.delete_lease(show, lease.etag)


def _hand_over(source: SourceBucket, show: str, lease: HeldLease) -> None:
    """Leave the lease, expired, to the next holder, with what it records. Should S3 fail this
    too, the lease keeps its record until its time runs out."""
    with suppress(BotoCoreError, ClientError):
        source.write_lease(show, lease.body(expires=0), lease.etag)


def _take(
    source: SourceBucket,
    show: str,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    wait: float,
    ahead: PagesAhead,
) -> HeldLease:
    deadline = clock() + wait
    held: str | None = None  # the ETag of a lease that has expired, to take over
    inherited = PagesAhead()  # what it records, taken over with it
    while True:
        lease = HeldLease(
            lease_key(show),
            etag="",  # until it is written
            holder=str(uuid.uuid4()),
            expires=clock() + LEASE_SECONDS,
            ahead=ahead | inherited,
            inherited=inherited,
            unsettled=bool(inherited),  # until the pages it took over are set right
        )
        if etag := source.write_lease(show, lease.body(), held):
            lease.etag = etag
            return lease
        current = source.read_lease(show)
        stored = HeldLease.stored(lease_key(show), current.etag, current.body) if current else None
        held = stored.etag if stored and stored.expires < clock() else None
        inherited = stored.ahead if stored and held else PagesAhead()
        if held:
            logger.warning("show lease expired; taking it over", show=show, ahead=bool(inherited))
        elif clock() >= deadline:
            raise ShowBusy(show)
        elif current:
            sleep(POLL_SECONDS)
