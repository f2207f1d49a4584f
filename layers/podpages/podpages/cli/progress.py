"""Following work the render function does for the CLI, with a progress bar."""

import time
from collections.abc import Callable, Iterable

from tqdm import tqdm  # tqdm ships no types, and types-tqdm is no dependency


def follow(
    total: int, finished: Callable[[], int], wait: float, interval: float, desc: str, unit: str, show: bool | None
) -> int:
    """Ask `finished` how many of `total` are done every `interval` seconds, until all are or `wait`
    seconds have passed; how many were done. `show` None shows the bar on a terminal only."""
    deadline = time.monotonic() + wait
    with tqdm(total=total, desc=desc, unit=unit, disable=hidden(show) or not total) as bar:
        while True:
            done = max(0, min(total, finished()))
            bar.update(done - bar.n)
            if done >= total or time.monotonic() > deadline:
                return done
            time.sleep(interval)


def progress_bar[T](items: Iterable[T], desc: str, unit: str, show: bool | None) -> Iterable[T]:
    """`items`, counted on a bar as they are taken; typed, where tqdm is not."""
    bar: Iterable[T] = tqdm(items, desc=desc, unit=unit, disable=hidden(show))
    return bar


def hidden(show: bool | None) -> bool | None:
    """tqdm's `disable`: None hides the bar unless standard error is a terminal."""
    return None if show is None else not show
