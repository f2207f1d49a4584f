"""What a rebuild costs: every page of a show of 10,000 episodes rendered again from its catalog,
as `podpages rebuild` fans it out, through the rebuild queue to the render handler, one request at a
time as the template's batch size has it. Against moto's S3 and SQS on 127.0.0.1.

    PYTHONPATH=tests python bench/rebuild.py [--episodes 10000]     (make bench runs it with the rest)
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from publishing import Stack
from synthetic import write_catalogue

from podpages.cli.source_folder import read_source_folder
from podpages.local import template
from podpages.local.aws import LocalAws
from podpages.local.event_source import EventSourceMapping
from podpages.publish.catalog_store import CatalogStore
from podpages.rebuild.queue import RebuildQueue
from podpages.rebuild.request import EPISODES_PER_REQUEST, rebuild_requests
from podpages.settings import Settings


def measure(episodes: int = 10_000) -> dict:
    settings = Settings(site_url="http://127.0.0.1:3000")
    folder = write_catalogue(Path(tempfile.mkdtemp()), episodes)
    catalog = read_source_folder(folder, settings).catalogs["bench"]
    with LocalAws() as aws:
        stack = Stack(aws)
        store = CatalogStore(stack.source, settings)  # the show as a publish leaves it
        store.commit(store.read("bench"), catalog)
        requests = list(rebuild_requests(stack.source, ["bench"]))
        RebuildQueue(stack.sqs, stack.resources.rebuild_queue_url).send(requests)
        batch_size = int(template.queue_events("RenderFunction")["RebuildQueue"]["BatchSize"])
        seconds: list[float] = []

        def timed(event: dict) -> dict:
            started = time.perf_counter()
            try:
                return stack.render(event)
            finally:
                seconds.append(time.perf_counter() - started)
                print(f"\rrebuild request {len(seconds)}/{len(requests)}", end="", file=sys.stderr, flush=True)

        stack.calls.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        mapping = EventSourceMapping(stack.sqs, stack.resources.rebuild_queue_url, timed, batch_size)
        delivery = mapping.drain(max_rounds=len(requests) + 10)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(file=sys.stderr)
        assert not delivery.failed and delivery.invocations == len(requests), delivery
        written = sum(operation == "PutObject" for operation, _key in stack.calls)
    pages = [seconds[index] for index, request in enumerate(requests) if request.episodes]
    return {
        "episodes": episodes,
        "episodes_per_request": EPISODES_PER_REQUEST,
        "requests": len(requests),
        "objects_written": written,
        "s3_requests": len(stack.calls),
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "page_request_median_s": round(statistics.median(pages), 2),
        "page_request_max_s": round(max(pages), 2),
        "listings_request_s": round(seconds[-1], 2),
        "timeout_s": template.resource("RenderFunction")["Properties"]["Timeout"],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    print(json.dumps(measure(parser.parse_args().episodes), indent=2))
