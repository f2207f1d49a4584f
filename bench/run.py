"""`make bench`: every benchmark in one run, printed as a table against the targets and written
to bench/results.json. Not part of `make test`: timings are figures to read, never assertions.

    PYTHONPATH=tests python bench/run.py [--quick]
"""

import argparse
import json
import os
import platform
import sys
from pathlib import Path

import cold_start
import nearby_warm
import publishing
import rebuild

RESULTS = Path(__file__).with_name("results.json")


def machine() -> dict:
    memory = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    return {
        "cpus": os.cpu_count(),
        "memory_gb": round(int(memory.split()[1]) / 1024**2, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def hugo(episodes: int, rounds: int) -> dict:
    try:
        import hugo_compare
    except ImportError as error:  # pragma: no cover - the comparison is optional where Hugo is missing
        return {"skipped": str(error)}
    return hugo_compare.compare(episodes, rounds)


def table(results: dict) -> list[str]:
    publishes = {item["episodes"]: item for item in results["publishing"]["single_publish"]}
    largest = publishes[max(publishes)]
    filled = results["publishing"]["backfill"]
    compared = results["hugo"]
    rows = [
        (
            "S3 requests per single publish",
            " / ".join(f"{item['s3_requests']} at {n:,}" for n, item in publishes.items()),
            "same count at every size, at most 20",
        ),
        (
            "bytes read / written / function CPU per publish",
            " | ".join(
                f"{item['bytes_read'] / 1e6:.2f} MB / {item['bytes_written'] / 1e6:.2f} MB / "
                f"{item['function_cpu_ms']:.0f} ms at {n:,}"
                for n, item in publishes.items()
                if n >= 1_000
            ),
            "each at most 1.5x its figure at 1,000, at every size",
        ),
        (
            f"single publish at {largest['episodes']:,} (domain / end to end)",
            f"{largest['domain_ms']} ms / {largest['end_to_end_ms']} ms",
            "",
        ),
    ]
    if "incremental" in compared:
        rows.append(
            (
                "single publish / Hugo's rebuild",
                f"{compared['incremental']['ratio']:.3f}",
                "at most 0.05 (1/20)",
            )
        )
        rows.append(("full render / Hugo's build", f"{compared['full_render']['ratio']:.2f}", "at most 0.5"))
    rows += [
        (
            f"back-fill of {filled['uploads']:,}: feed builds",
            f"{filled['feed_builds']} ({filled['wall_s']} s wall, {filled['cpu_s']} s CPU)",
            f"at most {filled['uploads'] // filled['batch_size'] + filled['workers']}",
        ),
        (
            "cold init, render / boto3",
            f"{results['cold_start']['RenderFunction']['ratio_of_medians']:.2f}",
            "at most 1.35",
        ),
        (
            "cold init, nearby / boto3",
            f"{results['cold_start']['NearbyFunction']['ratio_of_medians']:.2f}",
            "at most 1.25",
        ),
        (
            f"rebuild of {results['rebuild']['episodes']:,} episodes, one at a time",
            f"{results['rebuild']['requests']} requests, {results['rebuild']['wall_s']} s; "
            f"{max(results['rebuild']['page_request_max_s'], results['rebuild']['listings_request_s'])} s the longest",
            "each well inside the 60 s timeout",
        ),
        ("nearby warm, median", f"{results['nearby']['warm_json']['median_us']} µs", "under 1 ms"),
        (
            "nearby cold first request",
            f"{results['nearby']['first_request_ms']} ms, 1 GET of {results['nearby']['nearby_index_mb']} MB",
            "at most 1 MB read at 10,000",
        ),
        (
            "peak memory at 10,000 (publish / full render)",
            f"{results['publishing']['memory']['single_publish_max_rss_mb']} MB / "
            f"{results['publishing']['memory']['full_render_max_rss_mb']} MB",
            "at most 200 MB",
        ),
    ]
    width = max(len(row[0]) for row in rows)
    return [f"{name:{width}}  {value:40}  {target}" for name, value, target in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer samples, for a smoke run")
    quick = parser.parse_args().quick
    largest = 1_000 if quick else 10_000
    results = {"machine": machine()}
    results["publishing"] = publishing.measure((10, 1_000) if quick else (10, 1_000, 10_000))
    results["hugo"] = hugo(largest, 1 if quick else 3)
    results["cold_start"] = {
        function: cold_start.measure(function, 10 if quick else 40) for function in cold_start.FUNCTIONS
    }
    results["nearby"] = nearby_warm.measure(largest, 500 if quick else 5_000)
    results["rebuild"] = rebuild.measure(largest)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    host = results["machine"]
    print(f"machine: {host['cpus']} CPUs, {host['memory_gb']} GB, Python {host['python']}")
    for line in table(results):
        print(line)
    print(f"all figures: {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
