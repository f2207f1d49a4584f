"""How `podpages render` grows with the show: its time and its peak memory at 10,000 and 100,000
episodes, each in a fresh process, with the workers it takes by default, reading and writing in
memory where the machine offers it (see synthetic.RAM). Each size is rendered a few times, and its
median time compared.

    PYTHONPATH=tests python bench/render_scale.py        (make bench runs it with the rest)
"""

import json
import shutil
import statistics
import sys
import time

from hugo_compare import bytecode_as_installed
from publishing import SITE_URL, usage
from synthetic import workdir, write_catalogue

SIZES = (10_000, 100_000)
# Renders of each size, for a median: one run of either size varies by up to 10% on a shared machine.
ROUNDS = {10_000: 3, 100_000: 2}


def render(episodes: int, rounds: int = 1) -> dict:
    """`rounds` renders of one generated show of `episodes`, each timed from outside, as a user waits
    for it; the median time and the largest peak memory."""
    work = workdir("render-scale-")
    try:
        source = write_catalogue(work / "source", episodes)
        command = [sys.executable, "-m", "podpages.cli.main", "render", str(source), "--out", str(work / "site")]
        times, used = [], []
        for _ in range(rounds):
            shutil.rmtree(work / "site", ignore_errors=True)
            started = time.perf_counter()
            used.append(usage([*command, "--site-url", SITE_URL]))
            times.append(time.perf_counter() - started)
        return {
            "episodes": episodes,
            "wall_s": round(statistics.median(times), 2),
            "runs_s": [round(seconds, 2) for seconds in times],
            "cpu_s": round(statistics.median(run["cpu_s"] for run in used), 2),
            "max_rss_mb": max(run["max_rss_mb"] for run in used),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(sizes: tuple[int, ...] = SIZES) -> dict:
    bytecode_as_installed()
    runs = []
    for episodes in sizes:
        rounds = ROUNDS.get(episodes, 1)
        print(f"render of {episodes:,}, {rounds} times …", file=sys.stderr)
        runs.append(render(episodes, rounds))
    small, large = runs[0], runs[-1]
    # 1.0: time grows exactly as the show does; more: faster than linearly.
    size = large["episodes"] / small["episodes"]
    growth = (large["wall_s"] / small["wall_s"]) / size
    # The CPU time of all its processes: what the render costs, whatever the two cores' pace.
    cpu_growth = (large["cpu_s"] / small["cpu_s"]) / size
    return {"runs": runs, "growth_against_linear": round(growth, 2), "cpu_growth_against_linear": round(cpu_growth, 2)}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
