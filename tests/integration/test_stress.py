"""The site equals a from-scratch render, under stress: concurrent render workers, every event twice and in any order,
deletes and re-uploads of the same keys, and S3 faults, while a reader polls the site. At the end
the site bucket and the catalogs are what `podpages render` makes of the final source bucket:
nothing lost, nothing stale, nothing orphaned. A reader never saw a half-written object, nor a feed
lose an episode that had not been deleted.

The seeds are printed; PODPAGES_STRESS_SEEDS=1,2,3 replays or varies them."""

import json
import math
import os
import random
import threading
import time

import pytest

from podpages.cli.source_folder import read_source_folder
from podpages.local.resources import queue_arn
from podpages.local.template import max_receive_count
from support.stress import History, Reader, WorkerPlan, Workers, default_guids, feed_history_problems

SEEDS = [int(seed) for seed in os.environ.get("PODPAGES_STRESS_SEEDS", "20261130").split(",")]
SHOWS = [f"show-{number}" for number in range(10)]
SLUGS = [f"ep-{number:02d}" for number in range(30)]
WORKERS = 8
# As in production, a worker waits for a busy show for less than its invocation may run, and its
# invocation runs for less than its lease lasts; only shorter, so that a lease lost to an injected
# fault expires within the run.
LEASE_SECONDS = 20
TIMEOUT_SECONDS = 15
WAIT_SECONDS = 4
# On AWS a message that failed comes back after the queue's visibility timeout (725 s), later than a
# lease lasts (150 s), so a show left leased by a holder that died costs each of its messages one
# receive. Here a failed message comes back at once, and each receive waits WAIT_SECONDS for the
# lease: it may be received this many times while one lease runs out. The queue's maxReceiveCount
# counts as many receives for each of the template's, so that the dead-letter queue takes what it
# would take on AWS and no more.
RECEIVES_PER_LEASE = math.ceil(LEASE_SECONDS / WAIT_SECONDS) + 1


def depth(stack, queue_url: str) -> int:
    names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
    attributes = stack.sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=names)["Attributes"]
    return sum(int(attributes[name]) for name in names)


def wait_until_drained(stack, within: float = 600) -> None:
    deadline, empty_since = time.monotonic() + within, None
    while time.monotonic() < deadline:
        if depth(stack, stack.queue_url):
            empty_since = None
        elif empty_since is None:
            empty_since = time.monotonic()
        elif time.monotonic() - empty_since > 3:
            return
        time.sleep(0.5)
    raise AssertionError(f"the queue still holds {depth(stack, stack.queue_url)} messages")


def catalogs_in(stack) -> dict[str, tuple]:
    found = {}
    for catalog in stack.catalogs().values():
        found[catalog.show] = (catalog.document, [entry.content() for entry in catalog.episodes])
    return found


def run(stack, tmp_path, seed: int, operations: int, fault_rate: float) -> tuple[History, Reader, Workers]:
    rng = random.Random(seed)
    print(f"stress seed: {seed} (replay with PODPAGES_STRESS_SEEDS={seed})")
    # Our own events carry the sequencers that S3 would give; moto's carry none.
    stack.s3.put_bucket_notification_configuration(Bucket=stack.source, NotificationConfiguration={})
    stack.discard_pending()
    # Every version of every feed is kept, so that no transient regression can go unseen.
    stack.s3.put_bucket_versioning(Bucket=stack.site, VersioningConfiguration={"Status": "Enabled"})
    # A batch stays invisible for longer than the function may run (the template gives 6 times as long).
    visibility = str(2 * TIMEOUT_SECONDS)
    receives = max_receive_count("RenderQueue") * RECEIVES_PER_LEASE
    dead_letters = queue_arn(stack.sqs, stack.dead_letter_queue_url)
    redrive = {"deadLetterTargetArn": dead_letters, "maxReceiveCount": str(receives)}
    attributes = {"VisibilityTimeout": visibility, "RedrivePolicy": json.dumps(redrive)}
    stack.sqs.set_queue_attributes(QueueUrl=stack.queue_url, Attributes=attributes)
    history = History(stack, rng)
    reader = Reader(stack, history, default_guids(SHOWS, SLUGS))
    stop_reading = threading.Event()
    reading = threading.Thread(target=reader.run, args=(stop_reading,), daemon=True)
    plan = WorkerPlan(
        stack.s3.meta.endpoint_url,
        stack.queue_url,
        stack.settings.site_url,
        fault_rate,
        seed,
        LEASE_SECONDS,
        TIMEOUT_SECONDS,
        WAIT_SECONDS,
    )
    with Workers(WORKERS, plan) as workers:
        reading.start()
        published: dict[tuple[str, str], int] = {}
        for step in range(operations):
            show, roll = rng.choice(SHOWS), rng.random()
            if roll < 0.05:
                history.put_show(show, step)
            elif roll < 0.2 and (show, slug := rng.choice(SLUGS)) in published:
                history.delete_episode(show, slug)
                del published[(show, slug)]
            else:  # a new episode, or a re-upload of one
                slug = rng.choice(SLUGS)
                published[(show, slug)] = step
                history.put_episode(show, slug, step)
            if step % 15 == 14:
                history.flush()
        history.flush(everything=True)
        wait_until_drained(stack)
    stop_reading.set()
    reading.join(timeout=60)
    reader.read_once()  # and once more, at rest
    print(f"invocations timed out: {workers.timeouts}, of {workers.started} workers started")
    return history, reader, workers


def assert_invariant(stack, tmp_path, reader: Reader) -> None:
    # A message the dead-letter queue took is one no worker published: said as such, not as lost pages.
    assert depth(stack, stack.dead_letter_queue_url) == 0, "messages went to the dead-letter queue"
    expected_site = stack.from_scratch(tmp_path / "scratch")
    site = stack.site_objects()
    lost = sorted(expected_site.keys() - site.keys())
    orphaned = sorted(site.keys() - expected_site.keys())
    stale = sorted(key for key in expected_site.keys() & site.keys() if site[key] != expected_site[key])
    assert (lost, orphaned, stale) == ([], [], []), f"lost {lost}, orphaned {orphaned}, stale {stale}"
    assert reader.problems == [], reader.problems[:20]
    assert reader.reads > 0
    versions, regressions = feed_history_problems(stack, reader.history, reader.guids)
    print(f"reader: {reader.reads} reads; feed versions checked: {versions}")
    assert versions > 0 and regressions == [], regressions[:20]
    assert depth(stack, stack.queue_url) == 0
    assert stack.keys(stack.source, "errors/") == set() and stack.keys(stack.source, "locks/") == set()


@pytest.mark.parametrize("seed", SEEDS)
def test_eight_workers_publishing_200_uploads_twice_in_any_order_converge(stack, tmp_path, seed):
    history, reader, _workers = run(stack, tmp_path, seed, operations=300, fault_rate=0)

    assert history.puts >= 200 and history.deleted_at
    assert_invariant(stack, tmp_path, reader)
    scratch = read_source_folder(stack.download_uploads(tmp_path / "uploads"), stack.settings)
    assert catalogs_in(stack) == {
        show: (catalog.document, [entry.content() for entry in catalog.episodes])
        for show, catalog in scratch.catalogs.items()
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_injected_s3_faults_are_retried_and_redelivered_until_the_site_converges(stack, tmp_path, seed):
    _history, reader, workers = run(stack, tmp_path, seed, operations=120, fault_rate=0.12)

    print(f"S3 requests {workers.s3_requests}, faults injected {workers.faults}")
    assert workers.faults >= 0.1 * workers.s3_requests
    assert_invariant(stack, tmp_path, reader)
