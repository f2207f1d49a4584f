"""How `podpages render` grows with the show: its time and its peak memory at 10,000 and 100,000
episodes, each in a fresh process, with the workers it takes by default, reading and writing in
memory where the machine offers it (see synthetic.RAM).

    PYTHONPATH=tests python bench/render_scale.py        (make bench runs it with the rest)
"""

import json
import shutil
import sys
import time

from publishing import SITE_URL, max_rss
from synthetic import workdir, write_catalogue

SIZES = (10_000, 100_000)


def render(episodes: int) -> dict:
    """One render of a generated show of `episodes`, timed from outside, as a user waits for it."""
    work = workdir("render-scale-")
    try:
        source = write_catalogue(work / "source", episodes)
        command = [sys.executable, "-m", "podpages.cli.main", "render", str(source), "--out", str(work / "site")]
        started = time.perf_counter()
        rss = max_rss([*command, "--site-url", SITE_URL])
        return {"episodes": episodes, "wall_s": round(time.perf_counter() - started, 1), "max_rss_mb": rss}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(sizes: tuple[int, ...] = SIZES) -> dict:
    runs = []
    for episodes in sizes:
        print(f"render of {episodes:,} …", file=sys.stderr)
        runs.append(render(episodes))
    small, large = runs[0], runs[-1]
    # 1.0: time grows exactly as the show does; more: faster than linearly.
    growth = (large["wall_s"] / small["wall_s"]) / (large["episodes"] / small["episodes"])
    return {"runs": runs, "growth_against_linear": round(growth, 2)}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
