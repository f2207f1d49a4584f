"""The parts of the stress suites: render workers in their own processes (as Lambda runs
concurrent invocations in separate containers), S3 faults injected into their calls, a history of
uploads with the sequencers S3 would give them, and a reader that polls the site meanwhile."""

import dataclasses
import functools
import json
import multiprocessing
import os
import random
import threading
import time
from dataclasses import dataclass, field

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ConnectionClosedError, ReadTimeoutError
from lxml import etree, html

from podpages.catalog.model import default_episode_guid
from podpages.local.aws import local_client, local_environment
from podpages.local.event_source import EventSourceMapping
from podpages.local.functions import load_functions
from support.catalogs import episode_document, show_document
from support.events import notification

FAULTS = ("500 InternalError", "503 SlowDown", "timeout", "reset")


# ---------------------------------------------------------------- workers


TIMED_OUT = 124  # the exit status of a worker ended by its invocation's timeout


@dataclass(frozen=True)
class WorkerPlan:
    endpoint: str
    queue_url: str
    site_url: str
    fault_rate: float  # the share of S3 requests (attempts) that fail
    seed: int
    lease_seconds: float
    timeout_seconds: float  # an invocation's, shorter than the lease, as RenderFunction's is
    wait_seconds: float  # for a busy show's lease, shorter than the timeout, as in production


def run_worker(plan: WorkerPlan, stop, counts) -> None:
    """One render function container: poll the queue until told to stop, or until an invocation
    outlives its timeout, when Lambda ends the container and its batch comes back to the queue
    after the visibility timeout. So no holder outlives its lease, here as on Lambda."""
    import podpages.publish.show_lease

    # A lease lost to an injected failure would otherwise block its show for 150 s.
    podpages.publish.show_lease.LEASE_SECONDS = plan.lease_seconds
    render = load_functions(plan.site_url, local_environment(plan.endpoint), names=("RenderFunction",))[
        "RenderFunction"
    ]
    render.module.publisher.lease = functools.partial(podpages.publish.show_lease.show_lease, wait=plan.wait_seconds)
    injector = FaultInjector(random.Random(plan.seed), plan.fault_rate)
    if plan.fault_rate:
        injector.attach(render.module.s3)
    timeout = InvocationTimeout(plan.timeout_seconds)
    mapping = EventSourceMapping(
        local_client("sqs", plan.endpoint), plan.queue_url, timeout(render), retry_at_once=True
    )
    while not stop.is_set():
        reported = injector.calls, injector.injected
        mapping.poll(wait_seconds=1)
        with counts.get_lock():
            counts[0] += injector.calls - reported[0]
            counts[1] += injector.injected - reported[1]


class InvocationTimeout:
    """Ends the worker's process, from a watchdog thread, once an invocation has run longer than
    `seconds`: whatever it had not yet sent is never sent."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.started: float | None = None
        threading.Thread(target=self._watch, daemon=True).start()

    def __call__(self, handler):
        def timed(event):
            self.started = time.monotonic()
            try:
                return handler(event)
            finally:
                self.started = None

        return timed

    def _watch(self) -> None:
        while True:
            started = self.started
            if started is not None and time.monotonic() - started > self.seconds:
                os._exit(TIMED_OUT)
            time.sleep(0.05)


class Workers:
    """`count` render workers in their own processes, started and stopped together. A worker
    ended by its invocation's timeout is replaced, as Lambda starts a new container."""

    def __init__(self, count: int, plan: WorkerPlan):
        self.context = multiprocessing.get_context("spawn")
        self.plan = plan
        self.stop = self.context.Event()
        self.counts = self.context.Array("l", [0, 0])  # S3 requests seen, faults injected
        self.count = count
        self.started = 0
        self.timeouts = 0
        self.processes: list = []
        self.supervising = threading.Thread(target=self._supervise, daemon=True)

    def _start(self):
        seed = self.plan.seed * 1000 + self.started
        self.started += 1
        process = self.context.Process(
            target=run_worker, args=(dataclasses.replace(self.plan, seed=seed), self.stop, self.counts)
        )
        process.start()
        return process

    def _supervise(self) -> None:
        while not self.stop.wait(0.2):
            for index, process in enumerate(self.processes):
                if process.exitcode == TIMED_OUT:
                    self.timeouts += 1
                    self.processes[index] = self._start()

    def __enter__(self) -> "Workers":
        self.processes = [self._start() for _number in range(self.count)]
        self.supervising.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop.set()
        self.supervising.join()
        for process in self.processes:
            process.join(timeout=60)
            if process.is_alive():
                process.kill()

    @property
    def s3_requests(self) -> int:
        return self.counts[0]

    @property
    def faults(self) -> int:
        return self.counts[1]


# ----------------------------------------------------------------- faults


class FaultInjector:
    """Fails a share of S3 requests before they leave: a 500, a 503 SlowDown, a read timeout or a
    connection reset. botocore retries each request up to its attempt limit, so most faults are
    absorbed and some reach the publish, at whatever point it had reached."""

    def __init__(self, rng: random.Random, rate: float):
        self.rng = rng
        self.rate = rate
        self.calls = 0
        self.injected = 0

    def attach(self, client) -> None:
        client.meta.events.register_first("before-send.s3", self.before_send)

    def before_send(self, request, **_):
        self.calls += 1
        if self.rng.random() >= self.rate:
            return None
        self.injected += 1
        fault = self.rng.choice(FAULTS)
        if fault == "timeout":
            raise ReadTimeoutError(endpoint_url=request.url)
        if fault == "reset":
            raise ConnectionClosedError(endpoint_url=request.url)
        status, code = fault.split(" ")
        body = f"<Error><Code>{code}</Code><Message>injected</Message></Error>".encode()
        return AWSResponse(request.url, int(status), {"Content-Type": "application/xml"}, _Raw(body))


class _Raw:
    def __init__(self, body: bytes):
        self.body = body

    def stream(self, **_):
        yield self.body

    def read(self, *_):
        return self.body


# ---------------------------------------------------------------- history


@dataclass
class History:
    """Uploads, re-uploads and deletes across shows, performed on S3 in order, each with the
    notification S3 would send for it, carrying a sequencer that grows with every operation."""

    stack: object
    rng: random.Random
    sequencer: int = 0x1000_0000
    pending: list[dict] = field(default_factory=list)  # not sent yet
    deferred: list[dict] = field(default_factory=list)  # sent once, to be sent again
    deleted_at: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # (show, slug) -> wall clocks
    puts: int = 0

    def put_episode(self, show: str, slug: str, version: int) -> None:
        day = self.rng.randint(1, 28)
        published = f"2026-0{self.rng.randint(1, 9)}-{day:02d}T{self.rng.choice(['09', '10'])}:00:00Z"  # ties too
        document = episode_document(f"{show} {slug} v{version}", published, transcript=f"Take {version}.\n\nThe end.")
        self._record(f"episodes/{show}/{slug}.json", json.dumps(document))
        self.puts += 1

    def put_show(self, show: str, version: int) -> None:
        self._record(f"shows/{show}.json", json.dumps(show_document(f"Show {show} v{version}")))

    def delete_episode(self, show: str, slug: str) -> None:
        self.deleted_at.setdefault((show, slug), []).append(time.time())
        self._record(f"episodes/{show}/{slug}.json", None)

    def deleted_before(self, episode: tuple[str, str] | None, moment: float) -> bool:
        """Whether one of the episode's deletes (a key may be deleted, uploaded again and deleted
        again) came before `moment`."""
        return any(deleted <= moment for deleted in self.deleted_at.get(episode, [])) if episode else False

    def _record(self, key: str, body: str | None) -> None:
        self.sequencer += self.rng.randint(1, 64)
        if body is None:
            self.stack.remove(key)
        else:
            self.stack.upload(key, body)
        self.pending.append(notification(key, f"{self.sequencer:012X}", removed=body is None))

    def flush(self, everything: bool = False) -> None:
        """Send what happened so far, in a random order and every event twice: its first copy
        now, its second with the next flush (or now too, at the end)."""
        batch = self.pending + self.deferred
        self.rng.shuffle(batch)
        if everything:
            batch += self.pending
        for event in batch:
            self.stack.send(event)
        self.deferred = [] if everything else self.pending
        self.pending = []


# ----------------------------------------------------------------- reader


@dataclass
class Reader:
    """Polls the site bucket while the workers publish: every page and feed it reads must be
    whole and parse, and a feed may lose an episode only after that episode was deleted."""

    stack: object
    history: History
    guids: dict[str, tuple[str, str]]  # default episode GUID -> (show, slug)
    reads: int = 0
    problems: list[str] = field(default_factory=list)
    seen: dict[str, set[str]] = field(default_factory=dict)  # show -> GUIDs in its feed last time

    def run(self, stop: threading.Event) -> None:
        """Feeds are where an episode could vanish, so they are read ten times as often as pages."""
        rounds = 0
        while not stop.is_set():
            self.read_once(feeds_only=rounds % 10 != 0)
            rounds += 1

    def read_once(self, feeds_only: bool = False) -> None:
        for key in sorted(self.stack.keys(self.stack.site)):
            if feeds_only and not key.endswith("feed.xml"):
                continue
            try:
                body = self.stack.read(self.stack.site, key)
            except self.stack.s3.exceptions.NoSuchKey:
                continue  # deleted between the listing and the read
            read_at = time.time()
            self.reads += 1
            if key.endswith(".html"):
                self._page(key, body)
            elif key.endswith("feed.xml"):
                self._feed(key, body, read_at)

    def _page(self, key: str, body: bytes) -> None:
        if not body.rstrip().endswith(b"</html>") or html.fromstring(body).find(".//main") is None:
            self.problems.append(f"{key}: an incomplete page")

    def _feed(self, key: str, body: bytes, read_at: float) -> None:
        try:
            channel = etree.fromstring(body).find("channel")
        except etree.XMLSyntaxError as error:
            self.problems.append(f"{key}: a feed that does not parse: {error}")
            return
        show = key.split("/")[0]
        now = set(channel.xpath("item/guid/text()"))
        for guid in self.seen.get(show, set()) - now:
            episode = self.guids.get(guid)
            if not self.history.deleted_before(episode, read_at):
                self.problems.append(f"{key}: {episode or guid} vanished from the feed without being deleted")
        self.seen[show] = now


def default_guids(shows: list[str], slugs: list[str]) -> dict[str, tuple[str, str]]:
    return {default_episode_guid(show, slug): (show, slug) for show in shows for slug in slugs}


def feed_history_problems(stack, history: History, guids: dict[str, tuple[str, str]]) -> tuple[int, list[str]]:
    """Every version the site bucket kept of every feed, in the order written: an episode may leave
    a feed only once it has been deleted. Unlike the reader, which samples, this sees every write.
    S3 keeps times to the second, so a delete counts from the second it happened in."""
    checked, problems = 0, []
    pages = stack.s3.get_paginator("list_object_versions").paginate(Bucket=stack.site)
    versions = [item for page in pages for item in page.get("Versions", []) + page.get("DeleteMarkers", [])]
    for key in sorted({item["Key"] for item in versions if item["Key"].endswith("feed.xml")}):
        # Listed newest first; stable-sorting by time keeps that order within a second, reversed.
        history_of_key = sorted(
            reversed([item for item in versions if item["Key"] == key]), key=lambda item: item["LastModified"]
        )
        before: set[str] = set()
        for item in history_of_key:
            checked += 1
            if "ETag" in item:
                body = stack.s3.get_object(Bucket=stack.site, Key=key, VersionId=item["VersionId"])["Body"].read()
                now = set(etree.fromstring(body).xpath("channel/item/guid/text()"))
            else:
                now = set()  # a delete marker: the show was unpublished
            written = item["LastModified"].timestamp() + 1
            for guid in before - now:
                if not history.deleted_before(guids.get(guid), written):
                    problems.append(
                        f"{key} version {item['VersionId']}: {guids.get(guid, guid)} left before its delete"
                    )
            before = now
    return checked, problems
