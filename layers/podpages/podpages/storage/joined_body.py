"""A request body made of pieces of bytes, made as it is read and never joined.

A catalog's index of 1,000 entries at the contract's maximum is 164 MB. Made whole it is held twice
over (pydantic's buffer, then the bytes copied from it); made as it is read, it is held a piece at
a time. Each reading makes the pieces again: once to learn the length, once for botocore's
checksum, once to send, and once more for each retry. A body of at most `KEPT_BYTES` keeps the
pieces its first reading made, and is read again from them: an index of 1,000 ordinary entries
(2.5 MB) was made four times by each publish, a tenth of the publish's CPU.
"""

import io
from collections.abc import Buffer, Callable, Iterator

# Each call makes the pieces again, from the first, the same bytes every time.
type Pieces = Callable[[], Iterator[bytes]]

KEPT_BYTES = 8 * 1024 * 1024


class JoinedBody(io.RawIOBase):
    """The bytes of `pieces`, end to end, as a read-only file that seeks."""

    def __init__(self, pieces: Pieces):
        super().__init__()
        self._pieces, self._length = _kept_if_small(pieces)
        self._rewind()

    def _rewind(self) -> None:
        self._made = self._pieces()
        self._piece = memoryview(b"")  # what is left of the piece being read
        self._position = 0

    def __len__(self) -> int:
        return self._length

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._length}[whence] + offset
        if target < 0:
            raise ValueError(f"cannot seek to {target}, before the start")
        if target < self._position:
            self._rewind()
        while self._position < target and self._read_into(None, target - self._position):
            pass
        self._position = max(self._position, target)  # past the end, as a file allows
        return self._position

    def readinto(self, buffer: Buffer) -> int:
        view = memoryview(buffer).cast("B")
        written = 0
        while written < len(view) and (count := self._read_into(view[written:], len(view) - written)):
            written += count
        return written

    def _read_into(self, view: memoryview | None, most: int) -> int:
        """Move on by up to `most` bytes, copying them into `view` unless None; 0 at the end."""
        while not self._piece:
            piece = next(self._made, None)
            if piece is None:
                return 0
            self._piece = memoryview(piece)
        count = min(most, len(self._piece))
        if view is not None:
            view[:count] = self._piece[:count]
        self._piece = self._piece[count:]
        self._position += count
        return count


def _kept_if_small(pieces: Pieces) -> tuple[Pieces, int]:
    """`pieces`, or the pieces as made once when they hold at most `KEPT_BYTES` in all; and their length."""
    kept: list[bytes] = []
    length = 0
    for piece in pieces():
        length += len(piece)
        if length <= KEPT_BYTES:
            kept.append(piece)
        elif kept:
            kept = []  # too long to keep: made again at each reading
    if length > KEPT_BYTES:
        return pieces, length
    return (lambda: iter(kept)), length
