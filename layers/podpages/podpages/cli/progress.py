"""Progress bars for the CLI's long work: following work the render function does, and counting
files as they are read.

tqdm is imported where a bar is made, not with this module: `podpages render` off a terminal (a
script, a benchmark) shows none, and starts 16 ms sooner without it.
"""

import sys
import time
from collections.abc import Callable, Iterable


def follow(
    total: int, finished: Callable[[], int], wait: float, interval: float, desc: str, unit: str, show: bool | None
) -> int:
    """Ask `finished` how many of `total` are done every `interval` seconds, until all are or `wait`
    seconds have passed; how many were done. `show` None shows the bar on a terminal only."""
    from tqdm import tqdm  # tqdm ships no types, and types-tqdm is no dependency

    deadline = time.monotonic() + wait
    with tqdm(total=total, desc=desc, unit=unit, disable=not (shown(show) and total)) as bar:
        while True:
            done = max(0, min(total, finished()))
            bar.update(done - bar.n)
            if done >= total or time.monotonic() > deadline:
                return done
            time.sleep(interval)


def progress_bar[T](
    items: Iterable[T], desc: str, unit: str, show: bool | None, total: int | None = None
) -> Iterable[T]:
    """`items`, counted on a bar as they are taken, out of `total` where their number is not theirs
    to tell (a generator's); typed, where tqdm is not. `show` None shows the bar on a terminal only."""
    if not shown(show):
        return items
    from tqdm import tqdm

    bar: Iterable[T] = tqdm(items, desc=desc, unit=unit, total=total)
    return bar


def shown(show: bool | None) -> bool:
    """Whether a bar is shown: as `show` says, or, where it says None, where standard error is a terminal."""
    return sys.stderr.isatty() if show is None else show
