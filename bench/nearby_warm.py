"""How long a nearby request takes in a show of 10,000 episodes: the first one, and warm ones.

The handler that template.yaml names serves requests for random episodes of one show whose
catalog and nearby index sit in moto's in-process S3. The first request is timed in a fresh process
with LAMBDA_TASK_ROOT set, as a cold function on Lambda meets it: nothing it loads lazily has been
loaded by anything else. After it the index is held in memory, so each warm request is the handler
alone: routing, the lookup, the listing, the headers. The S3 requests made while timing are counted.

    make bench        or        PYTHONPATH=tests python bench/nearby_warm.py [--episodes 10000] [--requests 5000]

It borrows the tests' event and handler loaders, hence PYTHONPATH=tests.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

os.environ |= {
    "SITE_URL": "https://podcasts.example.com",
    "SOURCE_BUCKET": "podpages-source-bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "POWERTOOLS_SERVICE_NAME": "podpages",
    "POWERTOOLS_METRICS_NAMESPACE": "Podpages",
    "LOG_LEVEL": "WARNING",
}

import boto3
from moto import mock_aws

from podpages.catalog.model import Catalog
from podpages.observability import metrics
from podpages.publish.catalog_store import CatalogStore
from podpages.settings import Settings
from podpages.storage.source_bucket import SourceBucket
from support.events import nearby_request
from support.lambda_context import LambdaContext
from support.template import load_handler

SETTINGS = Settings(site_url="https://podcasts.example.com")
SUMMARY = "A week of changes to the project, told for people who build on it. " * 12
EXCERPT = ["A paragraph of the transcript, as the page shows it. " * 6] * 4


def catalog_json(show: str, count: int) -> bytes:
    """A catalog as the render function commits it, with summaries and excerpts of a realistic size."""
    start = datetime(2000, 1, 1, tzinfo=UTC)
    episodes = [
        {
            "slug": f"episode-{number:05d}",
            "guid": f"guid-{number}",
            "episode": {
                "title": f"Episode {number}",
                "published": (start + timedelta(hours=20 * number)).isoformat().replace("+00:00", "Z"),
                "duration": f"PT{20 + number % 40}M{number % 60}S",
                "summary": SUMMARY,
                "audio": {"url": f"https://media.example.com/{number}.mp3", "type": "audio/mpeg", "length": 1},
            },
            "excerpt": EXCERPT,
            "transcript": True,
            "sequencer": None,
        }
        for number in range(count)
    ]
    document = {"title": "Bench", "description": "A show.", "categories": ["Technology"], "author": "Bench"}
    return json.dumps({"version": 1, "show": show, "document": document, "episodes": episodes}).encode()


def stored_show(episodes: int) -> tuple[bytes, bytes]:
    """The show's catalog and nearby index, put in moto's S3 as the render function leaves them: the
    catalog cut into its index and frozen pages, the nearby index into its parts. Returns the whole
    catalog's JSON, for its size, and the nearby index."""
    s3 = boto3.client("s3")
    s3.create_bucket(Bucket=os.environ["SOURCE_BUCKET"])
    source = SourceBucket(s3, os.environ["SOURCE_BUCKET"])
    body = catalog_json("bench", episodes)
    catalog = Catalog.model_validate_json(body)
    store = CatalogStore(source, SETTINGS)
    store.commit(store.read("bench"), catalog)
    stored = source.read_first_line("bench")
    assert stored is not None
    return body, stored.body


def first_request(episodes: int) -> dict:
    """The first request of a freshly imported handler, for the show's oldest episode; run in a process
    of its own (`--first-request`)."""
    with mock_aws():
        body, index = stored_show(episodes)
        handler, module = load_handler("NearbyFunction")
        calls, read = [], []
        events = module.catalogs.source.client.meta.events
        events.register("before-call.s3", lambda **_: calls.append(1))
        events.register("after-call.s3.GetObject", lambda parsed, **_: read.append(parsed.get("ContentLength", 0)))
        started = time.perf_counter()
        response = handler(nearby_request("bench", "episode-00000"), LambdaContext())
        elapsed = time.perf_counter() - started
        assert response["statusCode"] == 200, response
    return {
        "catalog_mb": round(len(body) / 1e6, 1),
        "nearby_index_mb": round(len(index) / 1e6, 2),
        "first_request_ms": round(elapsed * 1000),
        "first_request_s3_requests": len(calls),
        "first_request_mb": round(sum(read) / 1e6, 3),
    }


def measure(episodes: int = 10_000, requests: int = 5_000) -> dict:
    """The first request's time and S3 requests, then warm medians and p99s per kind of request."""
    random.seed(7)
    os.environ.pop("AWS_ENDPOINT_URL", None)  # moto's in-process S3 here, not a local server another bench set
    cold = os.environ | {"LAMBDA_TASK_ROOT": "/var/task"}
    command = [sys.executable, __file__, "--first-request", "--episodes", str(episodes)]
    output = subprocess.run(command, env=cold, capture_output=True, text=True, check=True).stdout
    results: dict = {"episodes": episodes} | json.loads(output.splitlines()[-1])
    # The one Metrics of the functions takes its namespace from the environment when podpages is first
    # imported, which another benchmark of the same run may have done before this module set it.
    metrics.namespace = os.environ["POWERTOOLS_METRICS_NAMESPACE"]
    with mock_aws():
        stored_show(episodes)
        handler, module = load_handler("NearbyFunction")
        calls = []
        module.catalogs.source.client.meta.events.register("before-call.s3", lambda **_: calls.append(1))
        slugs = [f"episode-{number:05d}" for number in range(episodes)]
        handler(nearby_request("bench", slugs[0]), LambdaContext())  # the index, read once
        for label, query in (("json", {}), ("json_limit_50", {"limit": "50"}), ("html", {"format": "html"})):
            events = [nearby_request("bench", random.choice(slugs), query) for _ in range(requests)]
            handler(events[0], LambdaContext())  # the first HTML request loads Jinja
            calls.clear()
            timings = []
            for event in events:
                started = time.perf_counter()
                response = handler(event, LambdaContext())
                timings.append(time.perf_counter() - started)
                assert response["statusCode"] == 200
            timings.sort()
            results[f"warm_{label}"] = {
                "median_us": round(statistics.median(timings) * 1e6),
                "p99_us": round(timings[int(len(timings) * 0.99)] * 1e6),
                "requests": len(timings),
                "s3_requests": len(calls),
            }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=5_000)
    parser.add_argument("--first-request", action="store_true", help="time the first request alone (a fresh process)")
    options = parser.parse_args()
    if options.first_request:
        print(json.dumps(first_request(options.episodes)))
        return
    print(json.dumps(measure(options.episodes, options.requests), indent=2))


if __name__ == "__main__":
    main()
