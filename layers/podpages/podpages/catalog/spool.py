"""A file that a process sets data down in, to read back later, it or a process forked from it: what
it must keep but need not hold in memory, such as the cues of the companion transcripts that
`podpages render` reads and that a publish's batch brings. The file is in TMPDIR (Lambda's `/tmp`),
has no name there, and is gone once closed, or once its Spool is."""

import os
import tempfile
import weakref

from podpages.errors import room_needed


class Spool:
    def __init__(self, what: str):
        self.what = what  # what it holds, for the error that says it found no room
        self.end = 0
        file = tempfile.TemporaryFile()  # noqa: SIM115  (it lasts as long as the spool: `close`)
        self.fileno = file.fileno()
        self.close = weakref.finalize(self, file.close)

    def set_down(self, data: bytes) -> tuple[int, int]:
        """`data` written whole at the end of the file: where it starts, and its length. A write that
        finds the file system full, or the file at the largest size it may have, writes what fits and
        says so only at the next write: taken for the whole, it left a worker's run cut short, and the
        process that took the run in failed to unpickle it."""
        start, left = self.end, memoryview(data)
        with room_needed(tempfile.gettempdir(), self.what, "name a folder with more in TMPDIR"):
            while left:
                written = os.pwrite(self.fileno, left, self.end)
                left, self.end = left[written:], self.end + written
        return start, len(data)

    def read(self, start: int, length: int) -> bytes:
        """What was set down at `start`."""
        return os.pread(self.fileno, length, start)
