"""The file `podpages render` sets data down in, to read back later: in this process or in one forked
from it, and gone once closed."""

import gc
import os
import subprocess
import sys
import textwrap

import pytest

from podpages.catalog.spool import Spool
from support.interpreter import run_alone


def test_what_is_set_down_is_read_back_whole_from_where_it_was_set_down():
    # Given a spool
    spool = Spool("the test's data")

    # When pieces are set down one after another, one of them empty
    places = [spool.set_down(data) for data in (b"first", b"", b"\x00" * 70_000, b"last")]

    # Then each starts where the one before ended, and reads back as it was
    assert places == [(0, 5), (5, 0), (5, 70_000), (70_005, 4)]
    assert [spool.read(*place) for place in places] == [b"first", b"", b"\x00" * 70_000, b"last"]


def test_a_process_forked_after_data_is_set_down_reads_it_back():
    # Given data set down in a process with no thread but its main one, which then forks
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
                import os
                from podpages.catalog.spool import Spool

                spool = Spool("the test's data")
                place = spool.set_down(b"set down before the fork")
                if os.fork() == 0:
                    os.write(1, spool.read(*place))
                    os._exit(0)
                os.wait()
            """),
        ],
        capture_output=True,
        timeout=60,
    )

    # Then the forked process reads it
    assert result.stdout == b"set down before the fork", result.stderr


@pytest.mark.parametrize("ending", ["closed", "collected"])
def test_a_spool_closed_or_no_longer_referred_to_leaves_no_file_open(ending):
    # Given a spool with something set down
    spool = Spool("the test's data")
    spool.set_down(b"data")
    descriptor = spool.fileno

    # When it is closed, or dropped and collected
    if ending == "closed":
        spool.close()
    else:
        del spool
        gc.collect()

    # Then its file is closed
    with pytest.raises(OSError):
        os.fstat(descriptor)


def test_a_spool_that_finds_no_room_says_where_and_what_it_was_setting_down():
    # Given a process that may write no file past 64 KB, as in a folder of temporary files that full
    result = run_alone("""
        import resource
        from podpages.catalog.spool import Spool

        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, resource.RLIM_INFINITY))
        spool = Spool("the companion transcripts read")
        spool.set_down(b"x" * 40_000)
        spool.set_down(b"x" * 40_000)
    """)

    # Then the second piece, which does not fit whole, fails naming the folder, what it held and what to do
    assert result.returncode == 1
    assert "NoRoom: no room in " in result.stderr
    assert "for the companion transcripts read (File too large)" in result.stderr
    assert "name a folder with more in TMPDIR" in result.stderr
