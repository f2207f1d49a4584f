"""Progress bars for the CLI's long work: following work the render function does, counting files
as they are read, and tallying the parts of a render as they end.

Every bar is made by `_bar`, which imports tqdm when one is made, not with this module: `podpages
render` off a terminal (a script, a benchmark) shows none, and starts 16 ms sooner without it.
"""

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any


def follow(
    total: int, finished: Callable[[], int], wait: float, interval: float, desc: str, unit: str, show: bool | None
) -> int:
    """Ask `finished` how many of `total` are done every `interval` seconds, until all are or `wait`
    seconds have passed; how many were done. `show` None shows the bar on a terminal only."""
    deadline = time.monotonic() + wait
    with _bar(total=total, desc=desc, unit=unit, disable=not (shown(show) and total)) as bar:
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
    bar: Iterable[T] = _bar(items, desc=desc, unit=unit, total=total)
    return bar


@dataclass(frozen=True)
class Tally:
    """A count that its work adds to as parts of it end, and the lines it says meanwhile."""

    add: Callable[[int], None]
    say: Callable[[str], None]


@contextmanager
def tally(total: int, desc: str, unit: str, show: bool | None, say: Callable[[str], None]) -> Iterator[Tally]:
    """A count to `total`, on a bar, with what is said printed above the bar by `say`, never through
    it. `show` None shows the bar on a terminal only; without a bar, what is said goes to `say` alone."""
    if not shown(show):
        yield Tally(lambda _count: None, say)
        return
    with _bar(total=total, desc=desc, unit=unit) as bar:

        def say_above(line: str) -> None:
            with bar.external_write_mode(file=sys.stderr):
                say(line)

        yield Tally(bar.update, say_above)


def _bar(*items: Iterable[Any], **options: Any) -> Any:
    """A tqdm bar on standard error, of `options`, sized by `screen` where the terminal tells no size.
    Untyped, as tqdm is: it ships no types, and types-tqdm is no dependency."""
    from tqdm import tqdm

    return tqdm(*items, **options, **screen())


def screen() -> dict[str, int]:
    """The size a bar is drawn for where standard error is a terminal that tells none (0 by 0: a
    pseudo-terminal nobody sized, as `script` or `docker run -t` may make), on which tqdm draws
    nothing: COLUMNS and LINES, or 80 by 24, as `shutil.get_terminal_size` falls back to. Elsewhere
    nothing, and tqdm measures the terminal itself."""
    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError):  # not a terminal, or no descriptor
        return {}
    if size.columns and size.lines:
        return {}
    fallback = shutil.get_terminal_size()
    return {"ncols": size.columns or fallback.columns, "nrows": size.lines or fallback.lines}


def shown(show: bool | None) -> bool:
    """Whether a bar is shown: as `show` says, or, where it says None, where standard error is a terminal."""
    return sys.stderr.isatty() if show is None else show
