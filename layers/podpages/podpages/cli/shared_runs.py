"""A map over runs of items, whose runs this process shares with processes forked from it, for
`podpages render`'s reading of the source folder: each takes the next run of items from one counter
and calls the function on the whole run, and each forked one sets its runs' results down in a file
of its own, which this process takes in, in order, between runs of its own. The function takes a
run at once so that it may do each stage of its work for every item in turn (`source_folder`).

This process reads beside its workers rather than gathering what they read, since gathering was
most of what it did: with two workers reading the bench's 10,000 episodes, it spent 0.4 s of CPU
taking in and unpickling every result, on a third of a core each worker needed, and the read took
1.3 to 1.8 s. Reading a share here, one worker beside it, pickles half as much and runs two
processes on two cores: 1.1 to 1.3 s. It takes a forked worker's results only between its own
runs, never in a thread beside them, since such a thread must win the interpreter back from the
reading one for each piece it takes: when the executor's result thread did, the read took longer.

The results come one an item, in the items' order, however many processes share the map.
"""

import multiprocessing
import pickle
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import partial
from itertools import batched, chain
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkContext, ForkProcess
from multiprocessing.sharedctypes import Synchronized
from typing import Any

from podpages.catalog.spool import Spool
from podpages.cli.workers import forks
from podpages.errors import NoRoom

# Items a process takes at a time: reading the bench's show took as long in runs of 8, 32 or 128
# files, and a short run leaves little for one process to finish while the others wait.
RUN_LENGTH = 32

type OfRun = Callable[[Sequence[Any]], list[Any]]  # a run of items -> their results, in order
type RunMap = Callable[[OfRun, Sequence[Any]], Iterator[Any]]  # (function, items) -> a result an item, in order


def in_runs(function: OfRun, items: Sequence[Any]) -> Iterator[Any]:
    """`function`, which maps a run of items to their results, over `items` in runs, here, one run
    after another: the map `shared_map` gives where nothing forks."""
    return chain.from_iterable(map(function, batched(items, RUN_LENGTH, strict=False)))


class WorkerFailed(RuntimeError):
    """A forked worker ended without its results, or with an error, whose traceback this holds."""


class _Runs:
    """The items in runs of RUN_LENGTH, each handed to whichever process asks for one first."""

    def __init__(self, items: Sequence[Any], context: ForkContext):
        self.items = items
        self.count = -(-len(items) // RUN_LENGTH)
        self._next: Synchronized[int] = context.Value("i", 0)

    def take(self) -> int | None:
        """The index of the next run no process has taken, or None when every one is taken."""
        with self._next.get_lock():
            index = self._next.value
            self._next.value += 1
        return index if index < self.count else None

    def __getitem__(self, index: int) -> Sequence[Any]:
        return self.items[index * RUN_LENGTH : (index + 1) * RUN_LENGTH]


@contextmanager
def shared_map(workers: int) -> Iterator[RunMap]:
    """A map over runs (`in_runs`) shared between this process and `workers - 1` forked ones;
    `in_runs` itself with one worker, or in a process that must not fork (`workers.forks`). The
    function and the items reach the forked processes as they are when the map is called, since
    they fork then; each result crosses back pickled. Leaving the block stops any worker still running."""
    if not forks(workers):
        yield in_runs
        return
    with ExitStack() as stack:

        def shared(function: OfRun, items: Sequence[Any]) -> Iterator[Any]:
            context = multiprocessing.get_context("fork")
            runs = _Runs(items, context)
            workers_left = {}
            for _ in range(workers - 1):
                worker = _Worker.start(function, runs, context)
                stack.callback(worker.stop)
                workers_left[worker.results] = worker
            return _in_order(function, runs, workers_left)

        yield shared


def _in_order(function: OfRun, runs: _Runs, workers: dict[Connection, "_Worker"]) -> Iterator[Any]:
    """The results of every run, in order: this process's own, read as it comes to them, or a
    worker's, taken in once it says they are set down. While the next is a worker's and not set
    down yet, this process reads a run of its own; with none left to take, it waits."""
    done: dict[int, Callable[[], list[Any]]] = {}  # run index -> how to have its results
    for index in range(runs.count):
        while index not in done:
            if ready := wait(list(workers), timeout=0):
                _take_in(ready, workers, done)
            elif (taken := runs.take()) is not None:
                done[taken] = partial(list, function(runs[taken]))
            elif workers:
                _take_in(wait(list(workers)), workers, done)
            else:
                raise WorkerFailed(f"no process holds run {index} of {runs.count}")
        yield from done.pop(index)()


def _take_in(ready: list[Any], workers: dict[Connection, "_Worker"], done: dict[int, Callable[[], list[Any]]]) -> None:
    """What the workers whose pipes are `ready` say: where each set a run's results down, or, when
    it ends, how."""
    for results in ready:
        worker = workers[results]
        try:
            message = results.recv()
        except EOFError:  # it has set down every run it took
            del workers[results]
            if (code := worker.join()) != 0:
                raise WorkerFailed(f"a worker reading the source folder ended with exit code {code}") from None
            continue
        if isinstance(message, Exception):  # why it stopped
            raise message
        index, start, length = message
        done[index] = worker.reader(start, length)


class _Worker:
    """A forked process that reads runs until none is left, setting each run's results down,
    pickled, in its spool, a file it shares with this process, and saying where on its pipe."""

    def __init__(self, process: ForkProcess, results: Connection, spool: Spool):
        self.process, self.results, self.spool = process, results, spool

    @classmethod
    def start(cls, function: OfRun, runs: _Runs, context: ForkContext) -> "_Worker":
        spool = Spool("what the workers read")
        results, sender = context.Pipe(duplex=False)
        process = context.Process(target=_work, args=(function, runs, spool, sender), daemon=True)
        process.start()
        sender.close()  # the worker's end: the pipe ends when the worker closes its own
        return cls(process, results, spool)

    def reader(self, start: int, length: int) -> Callable[[], list[Any]]:
        """How to take in the results set down at `start`: when they are next, not before."""
        return lambda: pickle.loads(self.spool.read(start, length))

    def join(self) -> int | None:
        self.process.join()
        return self.process.exitcode

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.results.close()
        self.spool.close()


def _work(function: OfRun, runs: _Runs, spool: Spool, results: Connection) -> None:
    """A worker's part: each run it takes, its results pickled into `spool`, and where on `results`;
    the error that stops it instead, should one be raised."""
    try:
        while (index := runs.take()) is not None:
            start, length = spool.set_down(pickle.dumps(function(runs[index]), pickle.HIGHEST_PROTOCOL))
            results.send((index, start, length))
    except NoRoom as error:  # the user's to mend, as it says
        results.send(error)
    except BaseException:
        results.send(WorkerFailed(f"a worker reading the source folder failed:\n{traceback.format_exc()}"))
    finally:
        results.close()
