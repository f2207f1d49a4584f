"""The map `podpages render` reads the source folder with: this process and forked workers take runs
of items from one counter, each mapped by one call, and the results come back one an item, in order.
Each case runs in a process of its own, since a test runner's worker runs a thread and is never forked."""

import threading

import pytest

from podpages.cli.shared_runs import RUN_LENGTH, in_runs, shared_map
from support.interpreter import run_alone


@pytest.mark.parametrize("workers", [2, 3])
def test_the_results_are_the_built_in_maps_in_order_and_every_process_reads_a_share(workers):
    # Given more runs of items than there are processes, each slow enough that all of them take some
    result = run_alone(f"""
        import os, time
        from podpages.cli.shared_runs import RUN_LENGTH, shared_map

        def squares_where(numbers):
            time.sleep(0.002 * len(numbers))
            return [(number * number, os.getpid(), len(numbers)) for number in numbers]

        items = list(range(RUN_LENGTH * 20 + 7))
        # When they are mapped by {workers} processes
        with shared_map({workers}) as run:
            results = list(run(squares_where, items))
        print([square for square, _pid, _run in results] == [number * number for number in items])
        print(len({{pid for _square, pid, _run in results}}), os.getpid() in {{pid for _square, pid, _run in results}})
        print(sorted({{length for _square, _pid, length in results}}))
    """)

    # Then the results come one an item, in order, each process read a share, this one too, and
    # each call mapped a whole run, the last one what was left
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["True", f"{workers} True"]
    assert lines[2] == str([7, RUN_LENGTH])


def test_an_error_in_a_worker_ends_the_map_with_the_workers_traceback():
    # Given items one of which a worker fails on, a run the process that maps never reaches first
    result = run_alone(f"""
        import os, time
        from podpages.cli.shared_runs import shared_map

        PARENT = os.getpid()

        def fails_in_a_worker(numbers):
            if os.getpid() != PARENT:
                raise ValueError(f"a bug, at {{numbers[0]}}")
            time.sleep(0.3)  # a worker surely takes a run before this process has read them all
            return list(numbers)

        with shared_map(2) as run:
            list(run(fails_in_a_worker, range({RUN_LENGTH} * 10)))
    """)

    # Then the map fails, naming the error where the worker raised it
    assert result.returncode == 1
    assert "WorkerFailed: a worker reading the source folder failed" in result.stderr
    assert "ValueError: a bug, at" in result.stderr and "in fails_in_a_worker" in result.stderr


def test_a_worker_that_dies_ends_the_map_with_its_exit_code_rather_than_waiting_for_ever():
    # Given a worker that is killed while it reads
    result = run_alone(f"""
        import os, signal, time
        from podpages.cli.shared_runs import shared_map

        PARENT = os.getpid()

        def dies_in_a_worker(numbers):
            if os.getpid() != PARENT:
                os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(0.3)
            return list(numbers)

        with shared_map(2) as run:
            list(run(dies_in_a_worker, range({RUN_LENGTH} * 10)))
    """)

    # Then the map fails, saying how the worker ended
    assert result.returncode == 1
    assert "a worker reading the source folder ended with exit code -9" in result.stderr


def test_a_worker_whose_spool_has_no_room_ends_the_map_saying_where_rather_than_with_runs_cut_short():
    # Given workers that may write no file past 256 KB, as in a folder of temporary files that full,
    # and results that take more than that
    result = run_alone(f"""
        import resource, time
        from podpages.cli.shared_runs import shared_map

        resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, resource.RLIM_INFINITY))

        def pages(numbers):
            time.sleep(0.001 * len(numbers))
            return [str(number) * 3000 for number in numbers]

        with shared_map(2) as run:
            list(run(pages, range({RUN_LENGTH} * 40)))
    """)

    # Then the map fails, naming the folder and what to do, and no run is taken in cut short
    assert result.returncode == 1
    assert "NoRoom: no room in " in result.stderr and "(File too large)" in result.stderr
    assert "name a folder with more in TMPDIR" in result.stderr
    assert "UnpicklingError" not in result.stderr


def test_one_worker_or_a_process_running_another_thread_maps_here_a_run_after_another():
    # Given a thread beside this one, which might hold a lock when a worker forks
    stop = threading.Event()
    beside = threading.Thread(target=stop.wait)
    beside.start()
    try:
        # When one worker, or two, are asked for, then both map in this process
        with shared_map(1) as alone, shared_map(2) as threaded:
            assert alone is in_runs and threaded is in_runs
    finally:
        stop.set()
        beside.join()


def test_runs_mapped_here_give_each_items_result_in_order_a_run_at_a_call():
    # Given items that make two full runs and part of a third
    items = list(range(RUN_LENGTH * 2 + 5))
    calls = []

    def doubled(numbers):
        calls.append(len(numbers))
        return [number * 2 for number in numbers]

    # When they are mapped here
    results = list(in_runs(doubled, items))

    # Then each item has its result, in order, from a call on its run
    assert results == [number * 2 for number in items]
    assert calls == [RUN_LENGTH, RUN_LENGTH, 5]
