"""`make bench`: every benchmark in one run, printed as a table against the targets and written
to bench/results.json. Not part of `make test`: timings are figures to read, never assertions.

    PYTHONPATH=tests python bench/run.py [--quick]
"""

import argparse
import json
import os
import platform
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import cold_start
import companion_render
import contract_max
import nearby_warm
import publishing
import rebuild
import render_scale

RESULTS = Path(__file__).with_name("results.json")
SHOWS = 100  # the full render again, of as many episodes in so many shows
README = Path(__file__).parent.parent / "README.md"
TABLE_START, TABLE_END = (
    "<!-- bench table: written by `make bench` from bench/results.json -->",
    "<!-- end of bench table -->",
)


def machine() -> dict:
    memory = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    return {
        "cpus": os.cpu_count(),
        "memory_gb": round(int(memory.split()[1]) / 1024**2, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def hugo(episodes: int, rounds: int, shows: int = 1, with_notes: bool = False) -> dict:
    """podpages against Hugo on one show; with `shows` or `with_notes`, the full builds alone, of the
    same number of episodes in that many shows, with show notes or not."""
    try:
        import hugo_compare
    except ImportError as error:  # pragma: no cover - the comparison is optional where Hugo is missing
        return {"skipped": str(error)}
    if shows > 1 or with_notes:
        return hugo_compare.compare_site(shows, episodes, rounds, with_notes)
    return hugo_compare.compare(episodes, rounds)


@dataclass(frozen=True)
class Row:
    measure: str
    result: str
    target: str
    met: bool | None = None  # None: a figure to read, with no target


def floor_rows(render: dict) -> list[Row]:
    """The render function's floor (`cold_start.STEPS`), a step at a time, the last the floor."""
    return [
        Row(
            f"cold import of {name} / boto3",
            f"{step['ratio_of_medians']:.2f} ({step['median_ms']:.0f} ms against {render['boto3_median_ms']:.0f} ms)",
            "",
        )
        for name, step in render["steps"].items()
    ]


def full_render_row(site: str, compared: dict) -> Row:
    """The full render of `site` against Hugo's build of it, from one of `hugo_compare.compare_site`."""
    full = compared["full_render"]
    return Row(
        f"full render / Hugo's build, {site}",
        f"{full['ratio']:.2f} ({full['podpages_s']:.1f} s against {full['hugo_s']:.1f} s)",
        "at most 0.35",
        full["ratio"] <= 0.35,
    )


def rows(results: dict) -> list[Row]:
    """Every figure against its target, met or missed, from the results alone."""
    publishes = {item["episodes"]: item for item in results["publishing"]["single_publish"]}
    largest = publishes[max(publishes)]
    base = publishes.get(1_000, largest)
    filled, hourly = results["publishing"]["backfill"], results["publishing"]["hourly_publish"]
    occasional = {
        "fills an archive page": results["publishing"]["archive_filling_publish"],
        "freezes a page": results["publishing"]["freezing_publish"],
        "lists that page's sitemap part in the site's index": results["publishing"]["sitemap_indexing_publish"],
    }
    compared = results["hugo"]
    requests = [item["s3_requests"] for item in publishes.values()]
    growth = {
        name: max(item[name] / base[name] for n, item in publishes.items() if n >= 1_000)
        for name in ("bytes_read", "bytes_written", "function_cpu_ms")
    }
    cold = results["cold_start"]
    nearby, rebuilt, memory = results["nearby"], results["rebuild"], results["publishing"]["memory"]
    table = [
        Row(
            "S3 requests per ordinary publish (97 in 100: see the three below)",
            " / ".join(f"{count} at {n:,}" for n, count in zip(publishes, requests, strict=True)),
            "the same at every size, at most 20",
            len(set(requests)) == 1 and max(requests) <= 20,
        ),
        Row(
            f"bytes read / written / function CPU of a publish, {max(publishes):,} against 1,000",
            f"{growth['bytes_read']:.2f}x / {growth['bytes_written']:.2f}x / {growth['function_cpu_ms']:.2f}x "
            f"({largest['bytes_read'] / 1e6:.1f} MB / {largest['bytes_written'] / 1e6:.1f} MB / "
            f"{largest['function_cpu_ms']:.0f} ms)",
            "each at most 1.5x",
            max(growth.values()) <= 1.5,
        ),
        Row(
            f"a publish late in an hourly show's year: episode {hourly['first_publish_makes']:,}, "
            f"{hourly['frozen_pages']} frozen pages of that year",
            f"{hourly['s3_requests']} S3 requests, {hourly['bytes_read'] / 1e6:.2f} MB read, "
            f"{hourly['bytes_written'] / 1e6:.2f} MB written, {hourly['function_cpu_ms']:.0f} ms CPU",
            "at most 20 requests",
            hourly["s3_requests"] <= 20,
        ),
        *(
            Row(
                f"a publish that {what}, once in 100 ({publish['episodes']:,} episodes)",
                f"{publish['s3_requests']} S3 requests, {publish['bytes_read'] / 1e6:.2f} MB read, "
                f"{publish['bytes_written'] / 1e6:.2f} MB written",
                "at most 20 requests",
                publish["s3_requests"] <= 20,
            )
            for what, publish in occasional.items()
        ),
        *(
            Row(
                f"an edit of episode {item['edited'] + 1:,} of {item['episodes']:,} ({where}), retitled",
                f"{item['s3_requests']} S3 requests, {item['bytes_read'] / 1e6:.2f} MB read, "
                f"{item['bytes_written'] / 1e6:.2f} MB written, {item['function_cpu_ms']:.0f} ms CPU",
                "at most 20 requests",
                item["s3_requests"] <= 20,
            )
            for item, where in zip(
                results["publishing"]["edits"],
                ("one the feed holds", "the oldest, in a frozen page", "amid a frozen page"),
                strict=True,
            )
        ),
        *(
            row
            for removed in [results["publishing"].get("removal")]
            if removed
            for row in (
                Row(
                    f"a removal of episode {removed['removed'] + 1:,} of {removed['episodes']:,} (the oldest, in the "
                    "first archive page)",
                    _removal_costs(removed),
                    "at most 20 requests",
                    removed["s3_requests"] <= 20,
                ),
                Row(
                    "the same episode put back",
                    _removal_costs(removed["put_back"]),
                    "at most 20 requests",
                    removed["put_back"]["s3_requests"] <= 20,
                ),
                Row(
                    f"peak memory, that removal of one of {removed['episodes']:,}, as the render function",
                    f"{removed['max_rss_mb']} MB (the function has 1,024 MB)",
                    "at most 256 MB, holding no show whole",
                    removed["max_rss_mb"] <= 256,
                ),
                _as_on_lambda(removed["as_on_lambda"]),
            )
        ),
        Row(
            f"single publish at {largest['episodes']:,} (domain / end to end)",
            f"{largest['domain_ms']} ms / {largest['end_to_end_ms']} ms",
            "",
        ),
    ]
    if "incremental" in compared:
        incremental, full = compared["incremental"], compared["full_render"]
        table += [
            Row(
                "single publish / Hugo's rebuild",
                f"{incremental['ratio']:.3f} ({incremental['podpages_s']:.2f} s against {incremental['hugo_s']:.1f} s)",
                "at most 0.05",
                incremental["ratio"] <= 0.05,
            ),
            Row(
                "full render / Hugo's build",
                f"{full['ratio']:.2f} ({full['podpages_s']:.1f} s against {full['hugo_s']:.1f} s)",
                "at most 0.35",
                full["ratio"] <= 0.35,
            ),
        ]
    if "full_render" in (shows := results.get("hugo_shows", {})):
        table.append(full_render_row(f"the same {shows['episodes']:,} episodes in {shows['shows']} shows", shows))
    if "full_render" in (notes := results.get("hugo_notes", {})):
        table.append(full_render_row(f"{notes['episodes']:,} episodes with show notes", notes))
    if "incremental" in compared and (ten := publishes.get(10_000)):
        ratio = ten["end_to_end_ms"] / 1000 / compared["incremental"]["hugo_s"]
        table.append(
            Row(
                "single publish at 10,000, end to end on the local stack / Hugo's rebuild",
                f"{ratio:.3f} ({ten['end_to_end_ms'] / 1000:.2f} s against {compared['incremental']['hugo_s']:.1f} s)",
                "at most 0.05",
                ratio <= 0.05,
            )
        )
    table += [
        Row(
            f"back-fill of {filled['uploads']:,}: feed builds",
            f"{filled['feed_builds']} ({filled['wall_s']} s wall, {filled['cpu_s']} s CPU)",
            f"at most {filled['uploads'] // filled['batch_size'] + filled['workers']}",
            filled["feed_builds"] <= filled["uploads"] // filled["batch_size"] + filled["workers"],
        ),
        Row(
            "cold import and init, render / boto3",
            f"{cold['RenderFunction']['ratio_of_medians']:.2f}",
            "at most 1.5",
            cold["RenderFunction"]["ratio_of_medians"] <= 1.5,
        ),
        *floor_rows(cold["RenderFunction"]),
        Row(
            "cold import and init, nearby / boto3",
            f"{cold['NearbyFunction']['ratio_of_medians']:.2f}",
            "at most 1.15",
            cold["NearbyFunction"]["ratio_of_medians"] <= 1.15,
        ),
        Row(
            f"rebuild of {rebuilt['episodes']:,} episodes, one request at a time",
            f"{rebuilt['requests']} requests in {rebuilt['wall_s']} s; the longest "
            f"{max(rebuilt['page_request_max_s'], rebuilt['listings_request_s'])} s",
            f"each inside the {rebuilt['timeout_s']} s timeout",
            max(rebuilt["page_request_max_s"], rebuilt["listings_request_s"]) < rebuilt["timeout_s"],
        ),
        Row(
            "nearby API warm, median",
            f"{nearby['warm_json']['median_us']} µs",
            "under 1 ms",
            nearby["warm_json"]["median_us"] < 1000,
        ),
        Row(
            "nearby API cold first request",
            f"{nearby['first_request_ms']} ms, {nearby['first_request_s3_requests']} GET(s) of "
            f"{nearby['first_request_mb']} MB for the oldest episode",
            "under 30 ms, at most 1 MB read",
            nearby["first_request_ms"] < 30 and nearby["first_request_mb"] <= 1,
        ),
        Row(
            f"peak memory, a publish into {memory['episodes']:,}",
            f"{memory['single_publish_max_rss_mb']} MB",
            "at most 256 MB",
            memory["single_publish_max_rss_mb"] <= 256,
        ),
        Row(f"peak memory, `podpages render` of {memory['episodes']:,}", f"{memory['full_render_max_rss_mb']} MB", ""),
    ]
    if scale := results.get("render_scale"):
        small, large = scale["runs"][0], scale["runs"][-1]
        table += [
            Row(
                f"`podpages render` of {large['episodes']:,} against {small['episodes']:,}",
                f"{scale['growth_against_linear']:.2f} of linear"
                f" (medians {large['wall_s']} s against {small['wall_s']} s;"
                f" CPU {scale.get('cpu_growth_against_linear', '?')} of linear)",
                "at most linear (1.00)",
                scale["growth_against_linear"] <= 1.0,
            ),
            Row(
                f"peak memory, `podpages render` of {large['episodes']:,}",
                f"{large['max_rss_mb']} MB",
                "under 1 GB",
                large["max_rss_mb"] < 1024,
            ),
        ]
    if companions := results.get("companion_render"):
        small, large = companions["runs"][0], companions["runs"][-1]
        table.append(
            Row(
                f"`podpages render` of {small['episodes']:,} / {large['episodes']:,} episodes with an hour's"
                " WebVTT companion each: time, peak memory",
                f"{small['wall_s']} s, {small['max_rss_mb']} MB / {large['wall_s']} s, {large['max_rss_mb']} MB",
                "",
            )
        )
    if maximal := results.get("contract_max"):
        publish, request = maximal["render_function_publish_max_rss_mb"], maximal["nearby_function_request_max_rss_mb"]
        table.append(
            Row(
                f"peak memory at {maximal['episodes']:,} episodes of the contract's maximum "
                f"({maximal['catalog_entry_kb']} KB an entry): a publish / a nearby request",
                f"{publish} MB / {request} MB",
                "each at most 256 MB",
                max(publish, request) <= 256,
            )
        )
    return table


def _as_on_lambda(timed: dict) -> Row:
    """The removal's time in the render function's process, given its share of a CPU and S3's latency."""
    share, timeout = timed["cpu_share"], timed["timeout_s"]
    given = f"{share:.2f} of a CPU, as Lambda gives its memory" if share else "a whole CPU (no quota here)"
    return Row(
        f"that removal's handler, {given}, {timed['s3_latency_ms']:.0f} ms before each S3 request",
        f"{timed['handler_s']:.1f} s",
        f"inside the function's {timeout} s timeout",
        timed["handler_s"] < timeout if share else None,
    )


def _removal_costs(publish: dict) -> str:
    """What a removal of an old episode, or its upload put back, cost."""
    return (
        f"{publish['s3_requests']:,} S3 requests, {publish['bytes_read'] / 1e6:.2f} MB read, "
        f"{publish['bytes_written'] / 1e6:.2f} MB written, {publish['end_to_end_ms'] / 1000:.2f} s"
    )


def verdict(row: Row) -> str:
    return "" if row.met is None else "met" if row.met else "**missed**"


def markdown(table: list[Row]) -> list[str]:
    lines = ["| measure | result | target | |", "|---|---|---|---|"]
    return lines + [f"| {row.measure} | {row.result} | {row.target} | {verdict(row)} |" for row in table]


def write_readme(results: dict) -> None:
    """Put the table into the README, between its markers, so that it cannot drift from the results."""
    text = README.read_text(encoding="utf-8")
    before, rest = text.split(TABLE_START, 1)
    _old, after = rest.split(TABLE_END, 1)
    host = results["machine"]
    heading = f"Measured on {host['cpus']} CPUs, {host['memory_gb']} GB, Python {host['python']}."
    README.write_text(
        f"{before}{TABLE_START}\n{heading}\n\n" + "\n".join(markdown(rows(results))) + f"\n{TABLE_END}{after}",
        encoding="utf-8",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer samples, for a smoke run")
    parser.add_argument("--readme", action="store_true", help="only write the README's table from results.json")
    options = parser.parse_args()
    if options.readme:
        write_readme(json.loads(RESULTS.read_text(encoding="utf-8")))
        return
    if shutil.which("hugo") is None:  # before minutes of measuring, not after them
        raise SystemExit("make bench compares podpages with Hugo, which is not installed: apt-get install hugo")
    quick = options.quick
    largest = 1_000 if quick else 10_000
    results = {"machine": machine()}
    results["publishing"] = publishing.measure((10, 1_000) if quick else (10, 1_000, 10_000, 100_000))
    results["hugo"] = hugo(largest, 1 if quick else 3)
    results["hugo_shows"] = hugo(largest, 1 if quick else 3, shows=10 if quick else SHOWS)
    results["hugo_notes"] = hugo(largest, 1 if quick else 3, with_notes=True)
    results["cold_start"] = {
        function: cold_start.measure(function, 10 if quick else 40) for function in cold_start.FUNCTIONS
    }
    results["nearby"] = nearby_warm.measure(largest, 500 if quick else 5_000)
    results["rebuild"] = rebuild.measure(largest)
    results["render_scale"] = render_scale.measure((1_000, 10_000) if quick else render_scale.SIZES)
    results["companion_render"] = companion_render.measure((100, 300) if quick else companion_render.SIZES)
    results["contract_max"] = contract_max.measure(10_000 if quick else 100_000)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    host = results["machine"]
    print(f"machine: {host['cpus']} CPUs, {host['memory_gb']} GB, Python {host['python']}")
    table = rows(results)
    width = max(len(row.measure) for row in table)
    for row in table:
        print(f"{row.measure:{width}}  {row.result:44}  {row.target:36}  {verdict(row).strip('*')}")
    if not quick:  # a smoke run's figures are not the ones to publish
        write_readme(results)
    print(f"all figures: {RESULTS}; the README's table is written from them", file=sys.stderr)


if __name__ == "__main__":
    main()
