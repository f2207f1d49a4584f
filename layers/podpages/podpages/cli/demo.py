"""`make demo`: the whole product on one machine. S3 and SQS on 127.0.0.1, the buckets, queues
and notifications of template.yaml, the render function fed by a local event source mapping,
the sample catalogue published through them, and the site and API served as CloudFront would.
Only the site and API follow --host: moto's S3 and SQS ask for no credentials, so they stay on
127.0.0.1 whatever the site is served on."""

import json
import secrets
import signal
import socket
import threading
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from podpages.cli.publish import publish
from podpages.cli.targets import local_target
from podpages.cli.terminal import echo
from podpages.errors import UsageError
from podpages.local import template
from podpages.local.aws import LOOPBACK, LocalAws
from podpages.local.cdn import LocalCdn
from podpages.local.event_source import Delivery, EventSourceMapping, run_in_turn
from podpages.local.functions import FUNCTIONS, LocalFunction, load_functions
from podpages.local.recorder import Recorded, Recorder, endpoints_of
from podpages.local.resources import VISIBILITY_TIMEOUT, LocalResources, create_resources

EXAMPLES = template.ROOT / "examples"
SEED_PAGE = "/pytorch/backend-flexibility-revolution/"
PUBLISH_WAIT = 120  # seconds
SIGNAL_CHECK = 0.5  # seconds between looks for a Ctrl-C the wait may have missed


def run_demo(
    host: str,
    port: int,
    aws_port: int,
    examples: Path | None = EXAMPLES,
    visibility_timeout: int = VISIBILITY_TIMEOUT,
    batching_window: float | None = None,
    notify_recorder: bool = False,
    say: Callable[[str], None] = echo,
) -> int:
    """Run until Ctrl-C. `batching_window` overrides the template's MaximumBatchingWindowInSeconds.
    With `notify_recorder`, a recorder stands in for every endpoint the notify function calls, and
    each call it gets is printed."""
    for what, address, number in (("--port", host, port), ("--aws-port", LOOPBACK, aws_port)):
        _check_free(address, number, what)
    stop = threading.Event()
    # Ctrl-C and SIGTERM both stop it cleanly, even when started in the background with SIGINT ignored.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: _interrupt())
    recording = Recorder(on_request=_printer(say)) if notify_recorder else nullcontext(None)
    with LocalAws(aws_port) as aws, recording as recorder:
        names = template.function_environment("RenderFunction")
        resources = create_resources(
            aws.client("s3"), aws.client("sqs"), names["SOURCE_BUCKET"], names["SITE_BUCKET"], visibility_timeout
        )
        site_url = f"http://{host}:{port}"
        # Warnings (rejected uploads, failures) show; the info lines and metrics would drown them.
        quiet = {"LOG_LEVEL": "WARNING", "POWERTOOLS_METRICS_DISABLED": "true"}
        # As on AWS, the API answers only what the CDN sends it, proven by a secret header.
        secret = secrets.token_urlsafe(16)
        environment = aws.environment() | quiet | {"ORIGIN_SECRET": secret}
        loaded: tuple[str, ...] = FUNCTIONS
        if recorder:
            environment |= endpoints_of(recorder) | {"NOTIFY_QUEUE_URL": resources.notify_queue_url}
            loaded += ("NotifyFunction",)
        functions = load_functions(site_url, environment, names=loaded)
        mappings = event_source_mappings(aws.client("sqs"), resources, functions["RenderFunction"], batching_window)
        # The notify function polls apart, as on AWS: an endpoint that hangs never holds up a publish.
        notify_mappings = (
            event_source_mappings(aws.client("sqs"), resources, functions["NotifyFunction"], batching_window)
            if recorder
            else {}
        )
        cdn = LocalCdn(
            (host, port), aws.client("s3"), resources.site_bucket, functions["NearbyFunction"], origin_secret=secret
        )
        threads = [
            threading.Thread(target=run_in_turn, args=(mappings, stop, _reporter(say)), name="poller", daemon=True),
            threading.Thread(target=cdn.serve_forever, name="cdn", daemon=True),
        ]
        if notify_mappings:
            notifier = threading.Thread(
                target=run_in_turn, args=(notify_mappings, stop, _reporter(say, "notify")), name="notify", daemon=True
            )
            threads.append(notifier)
        for thread in threads:
            thread.start()
        try:
            say(f"S3 and SQS: {aws.endpoint}   site and API: {site_url}")
            if examples:
                say(f"publishing {examples} …")
                for line in publish(local_target(aws.endpoint), [examples], wait=PUBLISH_WAIT).lines():
                    say(line)
            say("")
            say(f"  episode page  {site_url}{SEED_PAGE}")
            say(f"  show page     {site_url}/pytorch/")
            say(f"  feed          {site_url}/pytorch/feed.xml")
            say(f"  sitemap       {site_url}/sitemap.xml")
            say(f"  nearby API    {site_url}/api/shows/pytorch/episodes/backend-flexibility-revolution/nearby")
            say(f"  v2 episode    {site_url}/release-radio/compiler-caches-explained/ (notes, chapters, people)")
            say(f"  transcript    {site_url}/release-radio/compiler-caches-explained/transcript/ (from a WebVTT file)")
            say("")
            if recorder:
                say(f"  notify recorder {recorder.url} (WebSub, pings and IndexNow: each call it gets is printed)")
            say(f"publish your own: .venv/bin/podpages publish --endpoint-url {aws.endpoint} PATH…")
            say("Ctrl-C stops everything.")
            _wait_for(stop)
        except KeyboardInterrupt:
            say("stopping …")
        finally:
            for number in (signal.SIGINT, signal.SIGTERM):  # a second Ctrl-C must not cut the shutdown short
                signal.signal(number, signal.SIG_IGN)
            stop.set()
            cdn.shutdown()
            cdn.server_close()
            for thread in threads:
                thread.join(timeout=5)
    say("stopped.")
    return 0


def event_source_mappings(
    sqs: Any, resources: LocalResources, function: LocalFunction, batching_window: float | None = None
) -> dict[str, EventSourceMapping]:
    """One mapping for each of the function's queues in template.yaml, by the queue's logical id,
    with its batch size and batching window (or `batching_window`, when given)."""
    urls = resources.queue_urls()
    return {
        queue: EventSourceMapping(
            sqs,
            urls[queue],
            function,
            batch_size=int(event["BatchSize"]),
            batching_window=float(
                event.get("MaximumBatchingWindowInSeconds", 0) if batching_window is None else batching_window
            ),
        )
        for queue, event in template.queue_events(function.name).items()
    }


def _reporter(say: Callable[[str], None], function: str = "render") -> Callable[[str, Delivery], None]:
    def report(queue: str, delivery: Delivery) -> None:
        failed = f", {len(delivery.failed)} failed and will be retried" if delivery.failed else ""
        batches = f"{delivery.invocations} batch(es)"
        say(f"{function} function: {delivery.delivered} message(s) from {queue} in {batches}{failed}")
        for error in delivery.errors:
            say(f"{function} function raised {error}")

    return report


def _printer(say: Callable[[str], None]) -> Callable[[Recorded], None]:
    """What the recorder prints of each call: what a real endpoint would have been told."""

    def recorded(request: Recorded) -> None:
        kind, _, query = request.path.lstrip("/").partition("?")
        if kind == "indexnow":
            urls = json.loads(request.body).get("urlList", [])
            say(f"notify recorder: IndexNow POST of {len(urls)} page(s): {' '.join(urls)}")
        elif kind == "websub":
            say(f"notify recorder: WebSub publish of {parse_qs(request.body.decode()).get('hub.url', ['?'])[0]}")
        else:
            say(f"notify recorder: ping of {parse_qs(query).get('url', ['?'])[0]}")

    return recorded


def _wait_for(stop: threading.Event) -> None:
    """Block until `stop` is set, in short waits: a signal that lands just before a wait without a
    timeout blocks leaves its handler pending until the wait ends, and so the demo deaf to Ctrl-C."""
    while not stop.wait(SIGNAL_CHECK):
        pass


def _interrupt() -> None:
    raise KeyboardInterrupt


def _check_free(host: str, port: int, option: str) -> None:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: TIME_WAIT is no owner
        try:
            probe.bind((host, port))
        except OSError:
            raise UsageError(f"{host}:{port} is in use; choose another with {option}") from None
