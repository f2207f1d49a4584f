"""What companion transcripts cost `podpages render`: a show whose every episode has an hour's WebVTT
beside its JSON (`synthetic.companion`: about 600 cues, 140 KB), at 1,000 and 3,000 episodes, each
rendered once in a fresh process: its time, the CPU time of it and its workers, and its peak memory.
Each companion adds four transcript files and a page, a hundred times what a page weighs; the
render holds neither their cues (`catalog/spool.py`) nor more than 32 MB of their files
(`plans.transcript_plans`), so that its peak does not grow with the show.

    PYTHONPATH=tests python bench/companion_render.py        (make bench runs it with the rest)
"""

import json
import shutil
import sys

from hugo_compare import bytecode_as_installed
from render_scale import render
from synthetic import workdir, write_catalogue

SIZES = (1_000, 3_000)


def measure(sizes: tuple[int, ...] = SIZES) -> dict:
    bytecode_as_installed()
    work = workdir("companion-render-")
    runs = []
    try:
        for episodes in sizes:
            source = write_catalogue(work / "source", episodes, with_companions=True)
            print(f"render of {episodes:,} episodes with an hour's companion each …", file=sys.stderr)
            used = render(source, work / "site")
            runs.append({"episodes": episodes, **used, "wall_s": round(used["wall_s"], 2)})
            shutil.rmtree(source)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"runs": runs}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
