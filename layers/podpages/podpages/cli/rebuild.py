"""`podpages rebuild`: every page of some shows, or of the whole site, rendered again from the
catalogs by the render function. The requests fan out over the rebuild queue; this queues them
and shows the queue draining."""

import time
from collections.abc import Iterable
from dataclasses import dataclass

from podpages.cli.progress import follow, progress_bar
from podpages.cli.status import queue_depths
from podpages.cli.targets import Target
from podpages.contract.source_keys import SLUG
from podpages.errors import UsageError
from podpages.rebuild.queue import RebuildQueue
from podpages.rebuild.request import RebuildRequest, rebuild_requests
from podpages.storage.source_bucket import SourceBucket

POLL_INTERVAL = 1.0  # seconds


@dataclass
class RebuildSummary:
    shows: int
    pages: int  # episode pages asked for
    requests: int
    left: int | None  # requests still queued when the wait ended; None when not waited for
    dead_letters: int  # requests the dead-letter queue gained meanwhile
    seconds: float

    @property
    def succeeded(self) -> bool:
        return not self.left and not self.dead_letters

    def lines(self) -> list[str]:
        asked = f"{self.requests} requests for {self.shows} shows ({self.pages} episode pages and their listings)"
        if self.left is None:
            return [f"queued {asked}; `podpages status` shows the queue"]
        lines = [f"rebuilt {asked} in {self.seconds:.1f} s"] if self.succeeded else [f"queued {asked}"]
        if self.left:
            lines.append(f"{self.left} requests still queued after {self.seconds:.0f} s; `podpages status` shows them")
        if self.dead_letters:
            lines.append(f"{self.dead_letters} requests failed into the dead-letter queue; see `podpages status`")
        return lines


def rebuild(target: Target, shows: Iterable[str] | None, wait: float, progress: bool | None = None) -> RebuildSummary:
    """Queue a rebuild of `shows`, or of everything when None, and wait up to `wait` seconds for the
    render function to work through the queue."""
    if not target.rebuild_queue_url:
        raise UsageError("no rebuild queue: name it with --rebuild-queue-url, or name a stack (--stack)")
    started = time.monotonic()
    source, queue = SourceBucket(target.s3, target.source_bucket), RebuildQueue(target.sqs, target.rebuild_queue_url)
    if shows is not None:
        shows = _published(source, shows)
    requests: list[RebuildRequest] = list(
        progress_bar(rebuild_requests(source, shows), "reading catalogs", "request", progress)
    )
    dead_before = _dead_letters(target)
    queue.send(progress_bar(requests, "queueing", "request", progress))
    summary = RebuildSummary(
        shows=len({request.show for request in requests if request.show}),
        pages=sum(len(request.episodes) for request in requests),
        requests=len(requests),
        left=None,
        dead_letters=0,
        seconds=0.0,
    )
    if wait > 0:
        summary.left = _watch(target, len(requests), wait, progress)
        summary.dead_letters = _dead_letters(target) - dead_before
    summary.seconds = time.monotonic() - started
    return summary


def _published(source: SourceBucket, shows: Iterable[str]) -> list[str]:
    """`shows`, once each is known to be published. Asked here, before any request is made, so that
    a mistyped show is the user's to fix (exit 2) and queues nothing of the others."""
    named = sorted(set(shows))
    for show in named:
        if not SLUG.fullmatch(show):
            raise UsageError(f"show {show!r} is not a show slug: it must match {SLUG.pattern}")
    published = source.list_shows()
    for show in named:
        if show not in published:
            raise UsageError(f"show {show!r} has no catalog, so nothing of it is published to rebuild")
    return named


def _watch(target: Target, queued: int, wait: float, progress: bool | None) -> int:
    """Follow the rebuild queue until it is empty or `wait` runs out; how many requests are left in it."""

    def done() -> int:
        return queued - sum(depth or 0 for depth in queue_depths(target.sqs, target.rebuild_queue_url))

    return queued - follow(queued, done, wait, POLL_INTERVAL, "rebuilding", "request", progress)


def _dead_letters(target: Target) -> int:
    return queue_depths(target.sqs, target.dead_letter_queue_url)[0] or 0
