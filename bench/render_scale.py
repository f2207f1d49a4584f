"""How `podpages render` grows with the show: its time and its peak memory at 10,000 and 100,000
episodes, each in a fresh process, with the workers it takes by default, reading and writing in
memory where the machine offers it (see synthetic.RAM). Each size is rendered a few times, and its
median time compared. The sizes take turns, round by round, so that a change in the machine's pace
during the runs weighs on both: run one after the other, a slower minute for the large show's
runs alone read as growth.

    PYTHONPATH=tests python bench/render_scale.py        (make bench runs it with the rest)
"""

import json
import shutil
import statistics
import sys
import time
from pathlib import Path

from hugo_compare import bytecode_as_installed
from publishing import SITE_URL, usage
from synthetic import workdir, write_catalogue

SIZES = (10_000, 100_000)
# Renders of each size, for a median: one run of either size varies by up to 10% on a shared machine.
ROUNDS = {10_000: 3, 100_000: 2}


def render(source: Path, site: Path) -> dict:
    """One render of `source` into `site`, in a fresh process timed from outside, as a user waits
    for it: its time, the CPU time of it and its workers, and its peak memory."""
    shutil.rmtree(site, ignore_errors=True)
    command = [sys.executable, "-m", "podpages.cli.main", "render", str(source), "--out", str(site)]
    started = time.perf_counter()
    used = usage([*command, "--site-url", SITE_URL])
    return {"wall_s": time.perf_counter() - started, **used}


def summary(episodes: int, runs: list[dict]) -> dict:
    """The median time and CPU time of a size's runs, and their largest peak memory."""
    return {
        "episodes": episodes,
        "wall_s": round(statistics.median(run["wall_s"] for run in runs), 2),
        "runs_s": [round(run["wall_s"], 2) for run in runs],
        "cpu_s": round(statistics.median(run["cpu_s"] for run in runs), 2),
        "max_rss_mb": max(run["max_rss_mb"] for run in runs),
    }


def measure(sizes: tuple[int, ...] = SIZES) -> dict:
    bytecode_as_installed()
    work = workdir("render-scale-")
    try:
        sources = {episodes: write_catalogue(work / f"source-{episodes}", episodes) for episodes in sizes}
        runs: dict[int, list[dict]] = {episodes: [] for episodes in sizes}
        for number in range(1, max(ROUNDS.get(episodes, 1) for episodes in sizes) + 1):
            for episodes in sizes:
                if number <= ROUNDS.get(episodes, 1):
                    print(f"render of {episodes:,}, round {number} …", file=sys.stderr)
                    runs[episodes].append(render(sources[episodes], work / "site"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summaries = [summary(episodes, runs[episodes]) for episodes in sizes]
    small, large = summaries[0], summaries[-1]
    # 1.0: time grows exactly as the show does; more: faster than linearly.
    size = large["episodes"] / small["episodes"]
    growth = (large["wall_s"] / small["wall_s"]) / size
    # The CPU time of all its processes: what the render costs, whatever the two cores' pace.
    cpu_growth = (large["cpu_s"] / small["cpu_s"]) / size
    return {
        "runs": summaries,
        "growth_against_linear": round(growth, 2),
        "cpu_growth_against_linear": round(cpu_growth, 2),
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
