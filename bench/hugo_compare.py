"""podpages against Hugo on the same show, timed side by side in one run.

    python bench/hugo_compare.py [--episodes 10000] [--rounds 3] [--workdir DIR]

Run it from the repository root with the project's venv Python.

Why: podpages claims that (a) a from-scratch render of a show costs at most 0.35 of what a
static site generator's full build of the same pages costs, and (b) publishing one episode
into a large show costs at most a twentieth of the rebuild such a generator needs, because a
publish re-renders a constant number of objects while Hugo, outside its server's watch mode,
has no incremental build on disk: a change means building the whole site again.

How: bench/synthetic.py writes the catalogue once, into memory (/dev/shm) where the machine has
it, so that neither tool is timed against the disk's clean-up of the other's last output
(see synthetic.RAM).
The script converts it into a Hugo site (content files from the same JSON, layouts and config
from bench/hugo/) and then, round by round, times each tool in turn, swapping which goes first
every round so that drift (thermal, page cache, noisy neighbours) hits both:

- full: `hugo` into an empty output with its resources and cache removed, against
  `podpages render --force`; both are whole processes, start-up included;
- incremental: after adding one episode to both sources, `hugo` again over its last output,
  against podpages' domain work for that publish, in this process with no S3: fold the change
  into the show's catalog and plan every object the publish writes, bodies rendered in memory;
- full again, on a site of as many episodes in many shows (`compare_site`; `make bench` runs
  it with 100): each tool then also builds each show's page, feed and year archives;
- full again, on one show whose every episode has show notes (`compare_site` with `with_notes`):
  both render the notes' Markdown on each page and in each feed item's content:encoded.

The conversion to Hugo content, the catalogue and the catalog read from the folder are setup
and not timed. The report gives medians and minima, the ratios against the targets, the
machine, and checks that Hugo's output holds what ours does (a page per episode, every episode
in the feed) with the bytes each tool wrote.
"""

import argparse
import compileall
import gc
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import synthetic
from publishing import rendered
from synthetic import write_catalogue

import podpages
from podpages.catalog.changes import transcripts_in
from podpages.catalog.fold import fold
from podpages.catalog.model import Catalog, default_episode_guid
from podpages.cli.source_folder import read_change, read_source_folder
from podpages.durations import iso_duration, parse_duration, total_seconds
from podpages.render.feed import podcast_guid
from podpages.render.plans import show_plan
from podpages.settings import Settings

SHOW = "bench"
SITE_URL = "https://bench.example.com"
HUGO_FILES = Path(__file__).resolve().parent / "hugo"  # config.toml and layouts/, copied into the site
COVER = Path(__file__).resolve().parent.parent / "templates" / "cover.png"  # the feed's default artwork
FULL_TARGET = 0.35  # podpages full render / Hugo full build
INCREMENTAL_TARGET = 1 / 20  # podpages single publish / Hugo rebuild


# --- the Hugo site, converted from the same source folder (setup, not timed) ----------------


def write_hugo_site(source: Path, site: Path) -> None:
    """A Hugo site holding the shows of `source`: its config and layouts, a section per show with
    a section per year for its archives, and a content file per episode."""
    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    shutil.copy(HUGO_FILES / "config.toml", site / "config.toml")
    shutil.copytree(HUGO_FILES / "layouts", site / "layouts")
    (site / "static").mkdir()
    shutil.copy(COVER, site / "static" / "cover.png")
    for document in sorted((source / "shows").glob("*.json")):
        slug, show = document.stem, json.loads(document.read_text())
        section = {
            "title": show["title"],
            "description": show["description"],
            "author": show["author"],
            "categories": show["categories"],
            "overview": show.get("overview", ""),
            # podpages derives it from the feed URL; computed here so both feeds carry the same one.
            "podcast_guid": podcast_guid(f"{SITE_URL}/{slug}/feed.xml"),
        }
        write_content(site / "content" / slug / "_index.md", section)
        for path in sorted((source / "episodes" / slug).glob("*.json")):
            add_hugo_episode(site, path, slug, show["title"])


def add_hugo_episode(site: Path, episode_json: Path, show: str, show_title: str) -> None:
    """content/<show>/<episode>.md from one episode JSON: the contract's fields as front matter
    and the full transcript as the body, so that Hugo renders it as Markdown (the excerpt is
    `truncate` of that) and writes it out whole as transcript.txt. Also the year's archive
    section, if this is its first episode."""
    document = json.loads(episode_json.read_text())
    duration = parse_duration(document["duration"])
    front_matter = {
        "title": document["title"],
        "date": document["published"],
        "summary": document["summary"],
        "duration": iso_duration(duration),
        "duration_seconds": total_seconds(duration),
        "audio": document["audio"],
        # The GUID podpages gives an episode that names none, so both feeds carry the same.
        "guid": default_episode_guid(show, episode_json.stem),
    } | ({"notes": document["notes"]} if "notes" in document else {})
    write_content(site / "content" / show / f"{episode_json.stem}.md", front_matter, document.get("transcript", ""))
    year = int(document["published"][:4])
    archive = site / "content" / show / str(year) / "_index.md"
    if not archive.exists():
        archive_matter = {
            "title": f"{show_title}: episodes from {year}",
            "description": f"Every episode of {show_title} published in {year}.",
            "year": year,
            "layout": "year",
            "outputs": ["HTML"],  # no feed per year
        }
        write_content(archive, archive_matter)


def write_content(path: Path, front_matter: dict, body: str = "") -> None:
    """A Hugo content file with JSON front matter: json.dumps quotes every field safely."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(front_matter, indent=1, ensure_ascii=False) + "\n" + body, encoding="utf-8")


# --- the timed runs ------------------------------------------------------------------------


def timed(run: Callable[[], object]) -> tuple[float, object]:
    """Wall-clock seconds of `run()`, with garbage collected beforehand, and what it returned."""
    gc.collect()
    started = time.perf_counter()
    result = run()
    return time.perf_counter() - started, result


def hugo_build(site: Path, out: Path, cold: bool) -> float:
    """One `hugo` run. Cold: nothing left from the last one (output, resources/, cache)."""
    cache = site / ".hugo_cache"
    if cold:
        for leftover in (out, site / "resources", cache):
            shutil.rmtree(leftover, ignore_errors=True)
    command = ["hugo", "--quiet", "--minify=false", "-s", str(site), "-d", str(out), "--cacheDir", str(cache)]
    seconds, _ = timed(lambda: subprocess.run(command, check=True, capture_output=True))
    return seconds


def podpages_render(source: Path, out: Path) -> float:
    """`podpages render`, the from-scratch render: a whole process, like Hugo's. The last output
    is removed first, untimed as it is for Hugo, so --force has nothing to delete."""
    shutil.rmtree(out, ignore_errors=True)
    command = [str(podpages_cli()), "render", str(source), "--out", str(out), "--site-url", SITE_URL, "--force"]
    seconds, _ = timed(lambda: subprocess.run(command, check=True, capture_output=True))
    return seconds


def bytecode_as_installed() -> None:
    """podpages' modules compiled to bytecode, as `pip install` compiles a package's, before any run
    is timed. The project's venv installs podpages in place, and where PYTHONDONTWRITEBYTECODE is
    set, as on this project's CI machines, every run would compile them again: 63 ms of each
    command's start (medians of 10), which no installed copy pays. Python reads the files whatever
    that variable says."""
    compileall.compile_dir(Path(podpages.__file__).parent, quiet=1)


def podpages_cli() -> Path:
    """The `podpages` console script of the interpreter running this (the project's venv)."""
    cli = Path(sys.executable).parent / "podpages"
    if not cli.exists():
        raise SystemExit(f"no podpages command beside {sys.executable}; run this with the project's venv Python")
    return cli


def podpages_publish(catalog: Catalog, episode_json: Path, settings: Settings) -> tuple[float, int, int]:
    """The domain time of publishing one episode: the fold into the show's catalog and the plan
    of what it writes, each body rendered in memory. Left out: S3 (the catalog's read and write,
    the objects' puts), the upload's parse (read_change) and any disk write, which Hugo's
    rebuild does include. The catalog is copied first so that no cache it holds (its positions)
    carries over from an earlier round. Returns the seconds and the numbers of objects the plan
    writes and deletes."""
    change = read_change(episode_json)
    before = Catalog(**dict(catalog))

    def publish():
        update = fold(before, [change], settings)
        plan = show_plan(update.after, update.refresh, settings, transcripts_in([change]))
        rendered(plan)
        return plan

    seconds, plan = timed(publish)
    return seconds, len(plan.puts), len(plan.deletes)


def catalog_json(catalog: Catalog) -> float:
    """Not in the targets, shown beside them: a real publish also reads catalog/<show>.json and
    writes it back, and at this size that parse and dump are a large part of its CPU."""
    body = catalog.model_dump_json()
    seconds, _ = timed(lambda: Catalog.model_validate_json(body).model_dump_json())
    return seconds


def alternate(rounds: int, runs: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Each run once per round, round-robin; the order turns every round so neither always goes first."""
    names = list(runs)
    times: dict[str, list[float]] = {name: [] for name in names}
    for number in range(rounds):
        order = names[number % len(names) :] + names[: number % len(names)]
        for name in order:
            times[name].append(runs[name]())
            print(f"  round {number + 1}/{rounds}: {name} {times[name][-1]:.3f} s", file=sys.stderr)
    return times


# --- checks and the report -----------------------------------------------------------------


def episode_pages(out: Path) -> int:
    return sum(1 for _ in out.glob("*/episode-*/index.html"))


def feed_items(out: Path) -> int:
    """The items of every show's feed."""
    return sum(len(re.findall(rb"<item>", feed.read_bytes())) for feed in out.glob("*/feed.xml"))


def output_summary(out: Path) -> dict:
    """What a tool wrote: files, bytes, episode pages and feed items."""
    files = [path for path in out.rglob("*") if path.is_file()]
    return {
        "files": len(files),
        "bytes": sum(path.stat().st_size for path in files),
        "episode_pages": episode_pages(out),
        "feed_items": feed_items(out),
    }


FEED_ITEMS = 1000  # FEED_MAX_ITEMS's default, and the Hugo site's rssLimit


def check_comparable(name: str, summary: dict, episodes: int, shows: int = 1) -> None:
    """Both outputs must hold a page per episode and each show's newest episodes in its feed, or the
    timings compare different work."""
    items = shows * min(episodes // shows, FEED_ITEMS)
    if summary["episode_pages"] != episodes or summary["feed_items"] != items:
        raise SystemExit(f"{name} output is not comparable: {summary}, expected {episodes} pages and {items} items")


def comparison(times: dict[str, list[float]], target: float) -> dict:
    """podpages against Hugo: the medians, their ratio against the target, and every run."""
    ratio = statistics.median(times["podpages"]) / statistics.median(times["hugo"])
    return {
        "podpages_s": statistics.median(times["podpages"]),
        "hugo_s": statistics.median(times["hugo"]),
        "ratio": ratio,
        "target": target,
        "met": ratio <= target,
        "podpages": spread(times["podpages"]),
        "hugo": spread(times["hugo"]),
    }


def spread(times: list[float]) -> dict:
    return {"median_s": statistics.median(times), "min_s": min(times), "runs_s": times}


def machine() -> dict:
    hugo = subprocess.run(["hugo", "version"], check=True, capture_output=True, text=True).stdout.strip()
    memory = next(
        (line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")),
        None,
    )
    return {
        "cpus": os.cpu_count(),
        "memory_gib": round(int(memory) / 2**20, 1) if memory else None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "hugo": hugo,
    }


def compare(episodes: int = 10_000, rounds: int = 3, workdir: Path | None = None) -> dict:
    """Time both tools on a show of `episodes` episodes, `rounds` times each; see the module."""
    if workdir is None:
        temporary = synthetic.workdir("hugo-compare-")
        try:
            return compare(episodes, rounds, temporary)
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
    bytecode_as_installed()
    source, site = workdir / "source", workdir / "hugo-site"
    hugo_out = workdir / "hugo-out"
    settings = Settings(site_url=SITE_URL)
    load_before = os.getloadavg()  # others' work on the machine skews both tools, Hugo's threads more

    print(f"setup: {episodes} episodes, the Hugo site from them", file=sys.stderr)
    shutil.rmtree(source, ignore_errors=True)
    write_catalogue(source, episodes, SHOW)
    write_hugo_site(source, site)
    full = full_builds(workdir, episodes, 1, rounds)

    print("incremental: one more episode", file=sys.stderr)
    catalog = read_source_folder(source, settings).catalogs[SHOW]  # the show as it was before the new episode
    write_catalogue(source, 1, SHOW, first=episodes)
    new_episode = source / "episodes" / SHOW / f"episode-{episodes:05d}.json"
    add_hugo_episode(site, new_episode, SHOW, json.loads((source / "shows" / f"{SHOW}.json").read_text())["title"])
    written: list[tuple[int, int]] = []

    def publish() -> float:
        seconds, puts, deletes = podpages_publish(catalog, new_episode, settings)
        written.append((puts, deletes))
        return seconds

    incremental = alternate(rounds, {"hugo": lambda: hugo_build(site, hugo_out, cold=False), "podpages": publish})
    check_comparable("hugo after the new episode", output_summary(hugo_out), episodes + 1)
    codec = [catalog_json(catalog) for _ in range(rounds)]

    return {
        "machine": machine()
        | {
            "load_average_before": load_before,
            "load_average_after": os.getloadavg(),
            "files_in_memory": workdir.resolve().is_relative_to(synthetic.RAM),
        },
        "episodes": episodes,
        "rounds": rounds,
        "full_render": full,
        "incremental": comparison(incremental, INCREMENTAL_TARGET)
        | {
            "objects_written": written[0][0],
            "objects_deleted": written[0][1],
            # Outside the target: what the catalog's JSON read and write add to a real publish.
            "catalog_json_s": statistics.median(codec),
            "ratio_with_catalog_json": (statistics.median(incremental["podpages"]) + statistics.median(codec))
            / statistics.median(incremental["hugo"]),
        },
    }


def full_builds(workdir: Path, episodes: int, shows: int, rounds: int) -> dict:
    """Both tools' full builds of the site in `workdir` (its source/ and hugo-site/), alternated
    round by round, each output checked to hold the same pages and feed items as the other's."""
    source, site = workdir / "source", workdir / "hugo-site"
    hugo_out, podpages_out = workdir / "hugo-out", workdir / "podpages-out"
    print("full builds", file=sys.stderr)
    times = alternate(
        rounds,
        {
            "hugo": lambda: hugo_build(site, hugo_out, cold=True),
            "podpages": lambda: podpages_render(source, podpages_out),
        },
    )
    outputs = {"hugo": output_summary(hugo_out), "podpages": output_summary(podpages_out)}
    for name, summary in outputs.items():
        check_comparable(name, summary, episodes, shows)
    return comparison(times, FULL_TARGET) | {"outputs": outputs}


def compare_site(shows: int, episodes: int = 10_000, rounds: int = 3, with_notes: bool = False) -> dict:
    """The full builds of a site of `shows` shows sharing `episodes` episodes alike, where each
    tool pays for each show's own page, feed and sitemaps as well as for the episodes; with
    `with_notes`, every episode has show notes."""
    workdir, each = synthetic.workdir("hugo-compare-site-"), episodes // shows
    try:
        bytecode_as_installed()
        notes = " with show notes" if with_notes else ""
        print(f"setup: {shows} shows of {each} episodes{notes}, the Hugo site from them", file=sys.stderr)
        for number in range(shows):
            write_catalogue(workdir / "source", each, f"show-{number:04d}", first=number * each, with_notes=with_notes)
        write_hugo_site(workdir / "source", workdir / "hugo-site")
        full = full_builds(workdir, each * shows, shows, rounds)
        return {
            "shows": shows,
            "episodes": each * shows,
            "with_notes": with_notes,
            "rounds": rounds,
            "full_render": full,
        }
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def table(result: dict) -> str:
    rows = [("measure", "podpages", "hugo", "ratio", "target")]
    for key, label in (("full_render", "full build"), ("incremental", "one new episode")):
        part = result[key]
        rows.append(
            (
                label,
                f"{part['podpages']['median_s']:.4f} s (min {part['podpages']['min_s']:.4f})",
                f"{part['hugo']['median_s']:.3f} s (min {part['hugo']['min_s']:.3f})",
                f"{part['ratio']:.4f}",
                f"<= {part['target']:.2f} {'met' if part['met'] else 'MISSED'}",
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows]
    outputs = result["full_render"]["outputs"]
    incremental = result["incremental"]
    lines += [
        "",
        f"{result['episodes']} episodes, {result['rounds']} rounds, medians; {result['machine']['cpus']} CPUs, "
        f"1-minute load {result['machine']['load_average_before'][0]:.2f} before, "
        f"{result['machine']['load_average_after'][0]:.2f} after",
        f"outputs: podpages {outputs['podpages']['files']} files, {outputs['podpages']['bytes']:,} bytes; "
        f"hugo {outputs['hugo']['files']} files, {outputs['hugo']['bytes']:,} bytes",
        f"one publish writes {incremental['objects_written']} objects; with the catalog JSON read and write "
        f"(+{incremental['catalog_json_s']:.3f} s) the ratio would be {incremental['ratio_with_catalog_json']:.4f}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--workdir", type=Path, help="keep the generated sources and outputs here (default: a temporary folder)"
    )
    options = parser.parse_args()
    result = compare(options.episodes, options.rounds, options.workdir)
    print(table(result))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
