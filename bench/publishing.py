"""What a publish costs: one new episode into shows of growing size, a back-fill through the
queue, and the render path's peak memory. Against moto's S3 and SQS on 127.0.0.1, with the
render handler template.yaml names and the local event source mapping.

    PYTHONPATH=tests python bench/publishing.py        (make bench runs it with the rest)
"""

import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from cold_start import as_on_lambda
from cpu_share import cpu_group, lambda_share, within
from separate_aws import SeparateAws
from synthetic import HOURS_APART, episode_document, slug, write_catalogue

from podpages.catalog.changes import transcripts_in
from podpages.catalog.feed_archives import cut, frozen_count
from podpages.catalog.fold import fold
from podpages.catalog.layout import split
from podpages.catalog.model import Catalog
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.sitemap_parts import indexed_count, sitemap_parts
from podpages.cli.source_folder import read_change, read_source_folder, upload_key
from podpages.local.aws import LocalAws
from podpages.local.event_source import EventSourceMapping
from podpages.local.functions import load_functions
from podpages.local.resources import create_resources
from podpages.local.template import function_environment, properties
from podpages.observability import metrics
from podpages.publish.publisher import Publisher
from podpages.render.plans import show_plan, site_plan
from podpages.render.site_objects import Plan
from podpages.settings import Settings
from podpages.storage.site_bucket import SiteBucket
from podpages.storage.source_bucket import SourceBucket
from support.paths import EVENTS

SITE_URL = "http://127.0.0.1:3000"
# New newest episodes published one after another into each show, for a median. The first of each size
# was the slowest of three in 7 of 10, by up to 60%, and a median of three was half decided by it.
PUBLISHES = 5
HOURLY_LATE_IN_THE_YEAR = 8_700  # episodes an hour apart from New Year's Day: the next is on 28 December
OCCASIONAL_AFTER = 1_200  # episodes, from which to find the next publish that fills, freezes or lists a page
EDITED_SHOW = 100_000  # episodes of the show whose episodes are edited
QUIET = {"LOG_LEVEL": "WARNING", "POWERTOOLS_METRICS_DISABLED": "true"}
S3_LATENCY_S = 0.030  # before each S3 request of a removal timed as on Lambda: a usual time to first byte


class Stack:
    """moto's server with the template's buckets and queue, and the render handler in this process."""

    def __init__(self, aws: LocalAws):
        self.aws = aws
        self.s3, self.sqs = aws.client("s3"), aws.client("sqs")
        names = {"source": "podpages-source-local", "site": "podpages-site-local"}
        self.resources = create_resources(self.s3, self.sqs, names["source"], names["site"], visibility_timeout=60)
        self.render = load_functions(SITE_URL, aws.environment() | QUIET, names=("RenderFunction",))["RenderFunction"]
        self.source = SourceBucket(self.s3, self.resources.source_bucket)
        self.site = SiteBucket(self.s3, self.resources.site_bucket)
        self.calls: list[tuple[str, str]] = []
        self.bytes_read = self.bytes_written = 0
        events = self.render.module.s3.meta.events
        events.register("before-parameter-build.s3", self._count, unique_id="bench-count-s3")
        events.register("after-call.s3.GetObject", self._read, unique_id="bench-count-read")

    def _count(self, params, model, **_):
        self.calls.append((model.name, params.get("Key", "")))
        body = params.get("Body", b"")  # botocore has wrapped a put's bytes in a BytesIO by now
        self.bytes_written += body.getbuffer().nbytes if hasattr(body, "getbuffer") else len(body)

    def _read(self, parsed, **_):
        self.bytes_read += parsed.get("ContentLength", 0)

    def clear(self) -> None:
        self.calls.clear()
        self.bytes_read = self.bytes_written = 0
        # Disabled metrics are never flushed, so never cleared: across this process's publishes they
        # would pile up to powertools' 100 a metric, whose forced flush then fails for want of a
        # namespace. Each publish starts with none, as each invocation on Lambda does.
        metrics.clear_metrics()

    def reset(self) -> None:
        self.aws.reset()
        self.__init__(self.aws)

    def mapping(self, batch_size: int = 10, window: float = 0.0) -> EventSourceMapping:
        return EventSourceMapping(self.sqs, self.resources.queue_url, self.render, batch_size, window)

    def discard_pending(self) -> None:
        queue = self.resources.queue_url
        while messages := self.sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get("Messages"):
            for message in messages:
                self.sqs.delete_message(QueueUrl=queue, ReceiptHandle=message["ReceiptHandle"])


def single_publishes(
    stack: Stack, sizes: Sequence[int], hours_apart: int = HOURS_APART, ordinary: bool = True
) -> list[dict]:
    """New newest episodes, one at a time, into shows of `sizes` episodes published `hours_apart`,
    side by side in one stack. For each show: the first publish's S3 requests and bytes and its
    domain time (the fold and the rendering, no S3); the median of all `PUBLISHES` of the function's
    CPU time and of the end-to-end time through the queue against the local stack. The shows take
    their publishes in turn, round after round, each round in the order the last one ended with, so
    that the machine's pace, which drifts by a third over the minutes this takes, weighs on every
    size alike. An `ordinary` publish is one of the 97 in 100 that neither fill an archive page, nor
    freeze one, nor list a frozen page's sitemap part in the site's sitemap index: when the first
    would, the show starts with more episodes, up to one whose next publish is ordinary."""
    settings = Settings(site_url=SITE_URL)
    starts = {
        f"bench-{number}": ordinary_start(size, settings.feed_max_items) if ordinary else size
        for number, size in enumerate(sizes, 1)
    }
    published = shows_as_last_published(stack, starts, hours_apart, settings)
    folders, domains = {}, {}
    for show in starts:
        folder, catalog = published.pop(show)
        new = write_episode(folder, show, starts[show], hours_apart)
        started = time.perf_counter()
        change = read_change(new)
        update = fold(catalog, [change], settings)
        written = show_plan(update.after, update.refresh, settings, transcripts_in([change]))
        rendered(written)
        domains[show] = (time.perf_counter() - started, len(written.puts))
        folders[show] = folder
        # The function's process holds no whole catalog: each goes before the function runs, so that
        # no pass of the cyclic collector in a timed publish walks its 100,000 entries (0.1 s a pass).
        del catalog, update, written
    gc.collect()
    runs: dict[str, list[dict]] = {show: [] for show in starts}
    order = list(starts)
    for number in range(PUBLISHES):
        for show in order:
            episode = write_episode(folders[show], show, starts[show] + number, hours_apart)
            runs[show].append(_publish(stack, episode))
        order.reverse()
    return [
        _publishes_made(size, starts[show], hours_apart, runs[show], *domains[show], settings)
        for size, show in zip(sizes, starts, strict=True)
    ]


def ordinary_start(episodes: int, feed_max_items: int) -> int:
    """The fewest episodes, from `episodes` on, a show may start with for its next publish to be ordinary."""
    while occasional(episodes + 1, feed_max_items):
        episodes += 1
    return episodes


def _publishes_made(
    size: int, start: int, hours_apart: int, runs: list[dict], domain: float, objects_written: int, settings: Settings
) -> dict:
    first, cpu = runs[0], [run["cpu"] for run in runs]
    return {
        "episodes": size,
        "first_publish_makes": start + 1,
        "hours_apart": hours_apart,
        "frozen_pages": frozen_count(show_bounds(start, settings.feed_max_items), start, settings.feed_max_items),
        "s3_requests": len(first["calls"]),
        "s3_requests_by_operation": dict(Counter(operation for operation, _key in first["calls"])),
        "objects_written": objects_written,
        "bytes_read": first["bytes_read"],
        "bytes_written": first["bytes_written"],
        "function_cpu_ms": round(statistics.median(cpu) * 1000, 1),
        "function_cpu_runs_ms": [round(seconds * 1000, 1) for seconds in cpu],
        "domain_ms": round(domain * 1000, 1),
        "end_to_end_ms": round(statistics.median(run["end_to_end"] for run in runs) * 1000, 1),
    }


def shows_as_last_published(
    stack: Stack, shows: dict[str, int], hours_apart: int, settings: Settings
) -> dict[str, tuple[Path, Catalog]]:
    """Each show of `shows` (name -> episodes) as its last publish left it, in a stack that holds them
    alone: its catalog cut into an index, its nearby index first, and frozen pages, each with its
    nearby part, and the site's sitemap index listing every show's parts; each show's source folder,
    and its whole catalog."""
    stack.reset()
    publisher = Publisher(stack.source, stack.site, settings)
    published = {}
    for show, episodes in shows.items():
        folder = write_catalogue(Path(tempfile.mkdtemp()), episodes, show, hours_apart=hours_apart)
        catalog = read_source_folder(folder, settings).catalogs[show]
        publisher.catalogs.commit(publisher.catalogs.read(show), catalog)
        published[show] = folder, catalog
    parts = {show: sitemap_parts(catalog, settings.feed_max_items) for show, (_folder, catalog) in published.items()}
    plan = site_plan(parts, settings)
    stack.site.apply(plan.puts, [])
    stack.discard_pending()
    return published


def edits(stack: Stack, episodes: int, numbers: list[int]) -> list[dict]:
    """Episodes `numbers` of a show of `episodes`, each retitled at the time it had, one publish
    after another: the S3 requests and bytes of each publish, and the function's CPU time."""
    # The source folder alone is kept: the whole catalog goes before the function runs (`single_publishes`).
    settings = Settings(site_url=SITE_URL)
    folder = shows_as_last_published(stack, {"bench": episodes}, HOURS_APART, settings)["bench"][0]
    gc.collect()
    measured = []
    for number in numbers:
        edited = folder / "episodes" / "bench" / f"episode-{number:05d}.json"
        document = json.loads(edited.read_text())
        edited.write_text(json.dumps(document | {"title": f"{document['title']} (retitled)"}))
        measured.append({"episodes": episodes, "edited": number} | costs(_publish(stack, edited)))
    return measured


def removal(stack: Stack, episodes: int, number: int) -> dict:
    """Episode `number` of the show `edits` left, its upload deleted: its S3 requests and bytes, and
    the function's CPU and end-to-end time. Then the same upload put back, and removed once more by
    the render handler in a process of its own, as on Lambda: its peak memory and its time."""
    key = f"episodes/bench/episode-{number:05d}.json"
    uploaded = stack.s3.get_object(Bucket=stack.resources.source_bucket, Key=key)["Body"].read()  # by its edit
    stack.s3.delete_object(Bucket=stack.resources.source_bucket, Key=key)
    run = _deliver(stack)
    removed = {"episodes": episodes, "removed": number} | costs(run) | {"end_to_end_ms": _ms(run["end_to_end"])}
    stack.s3.put_object(Bucket=stack.resources.source_bucket, Key=key, Body=uploaded)
    run = _deliver(stack)
    put_back = costs(run) | {"end_to_end_ms": _ms(run["end_to_end"])}
    stack.s3.delete_object(Bucket=stack.resources.source_bucket, Key=key)
    stack.discard_pending()
    return removed | {"put_back": put_back} | _removal_as_on_lambda(stack, key)


REMOVE = """
import json, os, sys, time
from podpages.local.template import load_handler
from podpages.storage.aws_clients import session
from support.lambda_context import LambdaContext
# Each S3 request first waits as long as S3's answer would take to come back from another machine.
latency = float(os.environ["BENCH_S3_LATENCY_S"])
delayed = []
def wait(**_):
    delayed.append(1)
    time.sleep(latency)
# The handler's clients come from podpages' session (`storage.aws_clients`), not boto3's default one.
session().register("before-send.s3", wait)
handler, _module = load_handler("RenderFunction")
started = time.perf_counter()
response = handler(json.loads(sys.argv[1]), LambdaContext(function_name="RenderFunction"))
assert response == {"batchItemFailures": []}, response
with open(os.environ["BENCH_TIMED_TO"], "w") as timed:
    json.dump({"seconds": time.perf_counter() - started, "delayed": len(delayed)}, timed)
"""


def _removal_as_on_lambda(stack: Stack, key: str) -> dict:
    """The render handler's peak memory and time as it publishes the removal of `key`, in a process
    of its own as on Lambda: with the CPU share a function of its memory gets (`cpu_share`), where
    this machine can give one, and S3's latency before each request (moto's server, on this
    machine, holds the buckets and answers at once)."""
    event = json.loads((EVENTS / "sqs-delete-episode.json").read_text())
    body = json.loads(event["Records"][0]["body"])
    body["Records"][0]["s3"]["object"]["key"] = key
    body["Records"][0]["s3"]["bucket"]["name"] = stack.resources.source_bucket
    event["Records"][0]["body"] = json.dumps(body)
    timed = Path(tempfile.mkdtemp()) / "seconds"
    buckets = {"SOURCE_BUCKET": stack.resources.source_bucket, "SITE_BUCKET": stack.resources.site_bucket}
    environment = function_environment("RenderFunction") | stack.aws.environment() | QUIET | buckets
    environment |= {"SITE_URL": SITE_URL, "BENCH_S3_LATENCY_S": str(S3_LATENCY_S), "BENCH_TIMED_TO": str(timed)}
    command = ["env", *(f"{name}={value}" for name, value in environment.items()), sys.executable, "-c", REMOVE]
    function = properties("RenderFunction")
    share = lambda_share(function["MemorySize"])
    procs = cpu_group(share)
    peak = max_rss(within(procs, [*command, json.dumps(event)]) if procs else [*command, json.dumps(event)])
    handled = json.loads(timed.read_text())
    if not handled["delayed"]:
        raise SystemExit("the removal as on Lambda made no S3 request that waited: the latency was not added")
    return {
        "max_rss_mb": peak,
        "as_on_lambda": {
            "cpu_share": round(share, 2) if procs else None,  # None: this machine gave no CPU quota
            "s3_latency_ms": _ms(S3_LATENCY_S),
            "handler_s": round(handled["seconds"], 1),
            "s3_requests_delayed": handled["delayed"],
            "timeout_s": function["Timeout"],
        },
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def costs(run: dict) -> dict:
    """What a delivery's publish cost: its S3 requests, by operation too, its bytes and its CPU time."""
    return {
        "s3_requests": len(run["calls"]),
        "s3_requests_by_operation": dict(Counter(operation for operation, _key in run["calls"])),
        "bytes_read": run["bytes_read"],
        "bytes_written": run["bytes_written"],
        "function_cpu_ms": round(run["cpu"] * 1000, 1),
    }


def occasional(count: int, feed_max_items: int) -> bool:
    """Whether the publish that makes a show's `count`th episode fills an archive page, freezes one,
    or lists a frozen page's sitemap part in the site's index, which a publish does once in 100 each
    (`catalog.feed_archives`, `catalog.sitemap_parts`)."""
    bounds = show_bounds(count, feed_max_items)
    freezes = frozen_count(bounds, count, feed_max_items) > frozen_count(bounds, count - 1, feed_max_items)
    indexes = indexed_count(bounds, count, feed_max_items) > indexed_count(bounds, count - 1, feed_max_items)
    return bounds.ends_at(count) or freezes or indexes


def next_occasion(after: int, feed_max_items: int, what: str) -> int:
    """How many episodes the show has when the next new newest episode, from `after` on, `what`:
    "fills" an archive page (it ends one), "freezes" one, or "indexes" one (has the site's sitemap
    index list its part). Pages are cut by their episodes' slugs (`feed_archives.cut`), so where
    each happens is found, not worked out."""
    bounds = show_bounds(after + 2_000, feed_max_items)
    does = {
        "fills": lambda count: bounds.ends_at(count),
        "freezes": lambda count: frozen_count(bounds, count, feed_max_items)
        > frozen_count(bounds, count - 1, feed_max_items),
        "indexes": lambda count: indexed_count(bounds, count, feed_max_items)
        > indexed_count(bounds, count - 1, feed_max_items),
    }[what]
    return next(count for count in range(after + 1, after + 2_000) if does(count)) - 1


def show_bounds(count: int, feed_max_items: int) -> PageBounds:
    """The archive pages of the benchmark's show of `count` episodes (`synthetic`)."""
    return PageBounds.of_counts(cut([slug(number) for number in range(count)], feed_max_items))


def rendered(plan: Plan) -> int:
    """The bytes of every object `plan` writes, rendered as its write renders them: a streamed feed
    renders nothing until it is written, a part at a time."""
    return sum(len(part) for item in plan.puts for part in item.parts())


def write_episode(folder: Path, show: str, number: int, hours_apart: int = HOURS_APART) -> Path:
    new = folder / "episodes" / show / f"{slug(number)}.json"
    new.write_text(json.dumps(episode_document(number, hours_apart)))
    return new


def _publish(stack: Stack, episode: Path) -> dict:
    """Upload `episode` and deliver its event (`_deliver`)."""
    stack.s3.put_object(Bucket=stack.resources.source_bucket, Key=upload_key(episode), Body=episode.read_bytes())
    return _deliver(stack)


def _deliver(stack: Stack) -> dict:
    """Deliver the queue's events: the function's S3 requests, bytes and CPU time, and the time from
    the delivery's start to its end."""
    mapping = stack.mapping()
    stack.clear()
    # moto's server runs in a process of its own (`SeparateAws`): this process's time is the
    # function's CPU, the catalog's read, parse and write, and the feed built on the S3 client's
    # threads as it is sent, included.
    started, cpu = time.perf_counter(), time.process_time()
    delivery = mapping.drain()
    end_to_end, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert delivery.delivered >= 1 and not delivery.failed, delivery
    return {
        "calls": list(stack.calls),
        "bytes_read": stack.bytes_read,
        "bytes_written": stack.bytes_written,
        "cpu": cpu,
        "end_to_end": end_to_end,
    }


def backfill(stack: Stack, uploads: int = 1000, batch_size: int = 100) -> dict:
    """`uploads` new episodes of one show, uploaded at once and delivered through the queue in
    batches of the template's size, by one worker."""
    stack.reset()
    folder = write_catalogue(Path(tempfile.mkdtemp()), uploads)
    for path in sorted((folder / "episodes" / "bench").iterdir()):
        stack.s3.put_object(
            Bucket=stack.resources.source_bucket, Key=f"episodes/bench/{path.name}", Body=path.read_bytes()
        )
    stack.clear()
    cpu, wall = time.process_time(), time.perf_counter()
    # The template's MaximumBatchingWindowInSeconds (5): a batch fills up to its size meanwhile.
    delivery = stack.mapping(batch_size=batch_size, window=5.0).drain(max_rounds=1000)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert not delivery.failed, delivery
    puts = [key for operation, key in stack.calls if operation == "PutObject"]
    return {
        "uploads": uploads,
        "batch_size": batch_size,
        "workers": 1,
        "invocations": delivery.invocations,
        "feed_builds": puts.count("bench/feed.xml"),
        "catalog_writes": puts.count("catalog/bench.json"),
        "catalog_conflicts": 0,  # one worker: nothing to race; the stress suite races eight
        "s3_requests": len(stack.calls),
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
    }


PEAK = """
import sys
from pathlib import Path
# What the render function holds before any event: its S3 client, and the modules its handler imports.
import boto3
boto3.client("s3", region_name="us-east-1")
import podpages.publish.publisher
from podpages.catalog.changes import transcripts_in
from podpages.catalog.fold import fold
from podpages.catalog.layout import join, read_index, split
from podpages.catalog.spooled_text import TextSpool
from podpages.catalog.window import Window, window
from podpages.catalog.changes import put
from podpages.contract.source_keys import parse_source_key
from podpages.render.plans import show_plan
from podpages.settings import Settings
from podpages.storage.streamed_upload import sized_parts
from podpages.render.feed_runs import KEPT_BYTES
settings = Settings(site_url="http://127.0.0.1:3000")
# The most a warm function keeps of its feeds' runs of items from earlier publishes (render/feed_runs.py).
kept_runs = b"-" * KEPT_BYTES
with open(sys.argv[1], "rb") as lines:
    index = read_index(lines, TextSpool())  # as the render function reads it: a line at a time, long texts set aside
upload = Path(sys.argv[2])
change = put(parse_source_key("/".join(upload.parts[-3:])), upload.read_bytes())  # episodes/<show>/<slug>.json
assert window(index, [change], settings) == Window(len(index.pages) + 1)  # no frozen page nor listing to read
update = fold(join(index, {}), [change], settings)
plan = show_plan(update.after, update.refresh, settings, transcripts_in([change]))
# Each object rendered as the function writes it: a streamed feed a part at a time, cut to the upload's parts.
written = sum(len(part) for item in plan.puts for part in sized_parts(item.parts()))
# The index, its nearby index first, as the commit sends it.
for line in split(update.after, settings.feed_max_items).index():
    pass
print(len(plan.puts), written)
"""


def peak_memory(episodes: int = 10_000) -> dict:
    """Max RSS of a publish into a show of `episodes` as a warm render function makes it (parse the
    catalog's index, fold, render the stale pages, the feed, the sitemap and the nearby index,
    holding as many runs of feed items as it may keep), and
    of `podpages render` of the whole show from its files."""
    settings = Settings(site_url=SITE_URL)
    folder = write_catalogue(Path(tempfile.mkdtemp()), episodes)
    catalog_file = Path(tempfile.mkdtemp()) / "catalog.json"  # the index a publish of a new newest episode reads
    catalog = read_source_folder(folder, settings).catalogs["bench"]
    catalog_file.write_bytes(b"".join(split(catalog, settings.feed_max_items).index()))
    new = Path(tempfile.mkdtemp()) / "episodes" / "bench" / f"episode-{episodes:05d}.json"
    new.parent.mkdir(parents=True)
    new.write_text(json.dumps(episode_document(episodes)))
    publish = max_rss([*as_on_lambda(), "-c", PEAK, str(catalog_file), str(new)])
    out = Path(tempfile.mkdtemp())
    render = max_rss(
        [sys.executable, "-m", "podpages.cli.main", "render", str(folder), "--out", str(out), "--site-url", SITE_URL]
    )
    return {
        "episodes": episodes,
        "catalog_index_mb": round(catalog_file.stat().st_size / 1e6, 1),
        "single_publish_max_rss_mb": publish,
        "full_render_max_rss_mb": render,
    }


def max_rss(command: list[str]) -> float:
    """The command's peak resident memory, in MB, from a fresh process of its own."""
    return usage(command)["max_rss_mb"]


def usage(command: list[str]) -> dict:
    """The command's peak resident memory, in MB, and the CPU time it and its workers took, in
    seconds, from a fresh process of its own."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
        "used = resource.getrusage(resource.RUSAGE_CHILDREN); print(used.ru_maxrss, used.ru_utime + used.ru_stime)"
    )
    result = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True)
    rss, cpu = result.stdout.split()
    return {"max_rss_mb": round(int(rss) / 1024, 1), "cpu_s": round(float(cpu), 2)}


def measure(sizes: tuple[int, ...] = (10, 1_000, 10_000)) -> dict:
    with SeparateAws() as aws:
        stack = Stack(aws)
        print(f"single publishes into shows of {', '.join(map(str, sizes))} episodes, in turn …", file=sys.stderr)
        publishes = single_publishes(stack, sizes)
        # Late in the year of an hourly show: 77 frozen pages of that year, which its archive page lists.
        print(f"single publish into an hourly show of {HOURLY_LATE_IN_THE_YEAR} episodes …", file=sys.stderr)
        (hourly,) = single_publishes(stack, [HOURLY_LATE_IN_THE_YEAR], hours_apart=1)
        # Once in 100 publishes or so an archive page fills, and it rewrites the one before for its link to it;
        # as often, the head's oldest episodes freeze into a page; and at the publish after, the site's
        # sitemap index lists the page's sitemap part.
        feed_max_items = Settings(site_url=SITE_URL).feed_max_items
        occasions = {}
        for what in ("fills", "freezes", "indexes"):
            episodes = next_occasion(OCCASIONAL_AFTER, feed_max_items, what)
            print(f"single publish into {episodes} episodes, which {what} a page …", file=sys.stderr)
            (occasions[what],) = single_publishes(stack, [episodes], ordinary=False)
        filling, freezing, indexing = occasions["fills"], occasions["freezes"], occasions["indexes"]
        # An edit of an episode the feed holds, one of the oldest, and one amid a frozen page.
        print(f"edits in a show of {EDITED_SHOW:,} episodes …", file=sys.stderr)
        edited = edits(stack, EDITED_SHOW, [EDITED_SHOW - 500, 0, EDITED_SHOW // 2 + 50])
        print(f"removal of the oldest of {EDITED_SHOW:,} …", file=sys.stderr)
        removed = removal(stack, EDITED_SHOW, 0)
        print("back-fill of 1,000 …", file=sys.stderr)
        filled = backfill(stack)
    print("peak memory at 10,000 …", file=sys.stderr)
    return {
        "single_publish": publishes,
        "hourly_publish": hourly,
        "archive_filling_publish": filling,
        "freezing_publish": freezing,
        "sitemap_indexing_publish": indexing,
        "edits": edited,
        "removal": removed,
        "backfill": filled,
        "memory": peak_memory(min(max(sizes), 10_000)),
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
