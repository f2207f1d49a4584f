"""A request body made of pieces of bytes, read as one file and never joined.

A catalog's index of 1,000 entries at the contract's maximum is 164 MB. Made whole it is made twice
over (pydantic's buffer, then the bytes copied from it), and joined from pieces it is held twice
over; read from its pieces, one entry a piece, it is held once.
"""

import io
from bisect import bisect_right
from collections.abc import Buffer, Sequence
from itertools import accumulate


class JoinedBody(io.RawIOBase):
    """`pieces`, end to end, as a read-only file that seeks: botocore reads a body once for its
    checksum and again to send it, and once more on each retry."""

    def __init__(self, pieces: Sequence[bytes]):
        super().__init__()
        self._pieces = [memoryview(piece) for piece in pieces if piece]
        self._starts = list(accumulate((len(piece) for piece in self._pieces), initial=0))
        self._position = 0

    def __len__(self) -> int:
        return self._starts[-1]

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: len(self)}[whence]
        if base + offset < 0:
            raise ValueError(f"cannot seek to {base + offset}, before the start")
        self._position = base + offset
        return self._position

    def readinto(self, buffer: Buffer) -> int:
        view = memoryview(buffer).cast("B")
        written = 0
        while written < len(view) and self._position < len(self):
            index = bisect_right(self._starts, self._position) - 1
            start = self._position - self._starts[index]
            piece = self._pieces[index][start : start + len(view) - written]
            view[written : written + len(piece)] = piece
            written += len(piece)
            self._position += len(piece)
        return written
