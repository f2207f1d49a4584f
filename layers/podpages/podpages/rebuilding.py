"""`podpages rebuild`: every page of some shows, or of the whole site, rendered again from the
catalogs by the render function. The requests fan out over the rebuild queue; this queues them
and shows the queue draining."""

import time
from collections.abc import Iterable
from dataclasses import dataclass

from tqdm import tqdm

from podpages.queue_status import queue_depths
from podpages.rebuild_queue import RebuildQueue
from podpages.rebuild_request import RebuildRequest, rebuild_requests
from podpages.storage import SourceBucket
from podpages.targets import Target

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
        raise ValueError("no rebuild queue: name it with --rebuild-queue-url, or name a stack (--stack)")
    started = time.monotonic()
    hidden = None if progress is None else not progress
    source, queue = SourceBucket(target.s3, target.source_bucket), RebuildQueue(target.sqs, target.rebuild_queue_url)
    requests: list[RebuildRequest] = list(
        tqdm(rebuild_requests(source, shows), desc="reading catalogs", unit="request", disable=hidden)
    )
    dead_before = _dead_letters(target)
    queue.send(tqdm(requests, desc="queueing", unit="request", disable=hidden))
    summary = RebuildSummary(
        shows=len({request.show for request in requests if request.show}),
        pages=sum(len(request.episodes) for request in requests),
        requests=len(requests),
        left=None,
        dead_letters=0,
        seconds=0.0,
    )
    if wait > 0:
        summary.left = _watch(target, len(requests), time.monotonic() + wait, hidden)
        summary.dead_letters = _dead_letters(target) - dead_before
    summary.seconds = time.monotonic() - started
    return summary


def _watch(target: Target, queued: int, deadline: float, hidden: bool | None) -> int:
    """Follow the rebuild queue until it is empty or the deadline passes; what is left in it."""
    with tqdm(total=queued, desc="rebuilding", unit="request", disable=hidden) as bar:
        while True:
            left = sum(queue_depths(target.sqs, target.rebuild_queue_url))
            bar.update(max(0, min(queued, queued - left) - bar.n))
            if left == 0 or time.monotonic() > deadline:
                return left
            time.sleep(POLL_INTERVAL)


def _dead_letters(target: Target) -> int:
    return queue_depths(target.sqs, target.dead_letter_queue_url)[0] or 0
