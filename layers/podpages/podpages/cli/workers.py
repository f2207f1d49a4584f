"""Work spread over the machine's cores for `podpages render`: processes forked from this one, so each
starts with the catalogs and settings already in memory, and nothing large crosses between them.

Each task's result is what it would be in this process, so the output does not depend on how many
workers there are; `--workers 1` runs everything here, in order.
"""

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

type Map = Callable[..., Iterator[Any]]  # map(function, items), in order
RUNS_PER_WORKER = 4  # runs of work to each worker: enough to even out their pace, few enough to cost little


def default_workers() -> int:
    """One worker per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@contextmanager
def worker_map(workers: int) -> Iterator[Map]:
    """A `map` that runs its calls in `workers` forked processes, keeping their order; with one
    worker, the built-in map, here. Functions and arguments must be picklable by reference, and the
    state they read must be set before the first call, since the workers fork then. A process that
    runs threads of its own (a test, a server) is never forked, since a lock one of them holds at
    that moment would stay held in the child for ever: it maps here.

    Each item goes to a worker alone, for items that are runs of work already: grouped, three runs
    of 1,000 episode pages went to one worker while the other sat idle for the last of them. Many
    small items are shared out by `shared_runs.shared_map` instead."""
    if not forks(workers):
        yield map
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:

        def spread(function: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
            return pool.map(function, items)

        yield spread


def forks(workers: int) -> bool:
    """Whether work for `workers` goes to processes forked from this one: more than one asked for, a
    system that forks, and no other thread here (`threaded`)."""
    return workers > 1 and not threaded() and "fork" in multiprocessing.get_all_start_methods()


def threaded() -> bool:
    """Whether this process runs another thread: one of `threading`'s, or one started beneath it,
    which `threading` does not count (the one a test runner's worker reads its orders on, say)."""
    try:
        return len(os.listdir("/proc/self/task")) > 1
    except OSError:  # no /proc: only threading's own are seen
        return threading.active_count() > 1


@contextmanager
def lasting_objects() -> Iterator[Callable[[], None]]:
    """A block that first makes objects meant to last it out, such as the catalogs a render reads, then
    forks workers. It is given `made`, to call once they are: until then the cyclic garbage collector
    is held off, since each of its full passes would walk all of them again (reading 100,000 episodes:
    4 s of 15); then they are frozen, as Python's `gc` advises before a fork, so that no later pass,
    here or in a worker, walks them and copies their pages. Leaving the block lets them go."""
    enabled = gc.isenabled()
    gc.disable()

    def made() -> None:
        gc.freeze()
        if enabled:
            gc.enable()

    try:
        yield made
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def chunks[T](items: Sequence[T], count: int) -> list[Sequence[T]]:
    """`items` in `count` runs of near-equal length, in order; fewer when there are fewer items."""
    size = -(-len(items) // max(1, count)) if items else 1
    return [items[start : start + size] for start in range(0, len(items), size)]
