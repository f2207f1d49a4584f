"""The objects a render reads to last it out: held out of the cyclic collector's way while they are
made, frozen once they are, and let go when the render is done. And the processes a render forks:
never from a process that runs another thread."""

import _thread
import gc
import subprocess
import sys
import threading

from podpages.cli.workers import lasting_objects, worker_map


def test_lasting_objects_are_frozen_once_made_and_let_go_after():
    assert gc.isenabled()
    with lasting_objects() as made:
        # While they are made, no pass of the collector walks them
        assert not gc.isenabled()
        catalogs = [{"slug": f"episode-{number}"} for number in range(1_000)]
        made()
        # Then they are frozen, and the collector runs again for what comes after
        assert gc.isenabled() and gc.get_freeze_count() >= len(catalogs)
    # And the block let them go: a process that lives on after the render collects them again
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_lasting_objects_leave_the_collector_as_they_found_it_when_the_block_fails():
    try:
        with lasting_objects():
            raise ValueError("a file could not be read")
    except ValueError:
        pass
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_process_running_a_thread_threading_does_not_count_renders_without_forking():
    # Given a thread started beneath `threading`, as a test runner's worker starts the one it reads
    # its orders on, which holds a lock for as long as it runs
    started, stop = threading.Event(), _thread.allocate_lock()
    stop.acquire()

    def wait() -> None:
        started.set()
        with stop:
            pass

    _thread.start_new_thread(wait, ())
    started.wait()
    try:
        # When a render asks for two workers, then it maps here, in this process: a child forked now
        # would find that lock held for ever
        with worker_map(2) as run:
            assert run is map
    finally:
        stop.release()


def test_a_process_running_no_other_thread_forks_its_workers():
    # Given a process of its own that runs no thread but its main one
    code = "from podpages.cli.workers import worker_map\nwith worker_map(2) as run: print(run is map)"
    # When a render asks for two workers, then they are forked
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
