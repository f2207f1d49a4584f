"""Long texts of catalog entries set aside on the local disk while a publish holds the catalog.

At the contract's maxima a publish reads 1,000 entries of 160 KB, 150 KB of it chapters, show notes
and lists, which only a few pages, the feed's items and the index's own lines print, one entry at a
time. Held in memory they took 150 MB of the render function's 256; set aside in a temporary file
(Lambda's `/tmp`) they cost a few bytes each, and are read back by whichever prints them.

So may a transcript's excerpt, which its episode's page alone prints: up to 1,500 characters in a
few paragraphs, 1.7 KB of an entry's 3.7 KB. A removal that shifts every frozen page after its
episode's holds 99,000 of them, and sets them aside; a publish that reads the index's head alone, as
most do, keeps its 1,000 in memory, since it writes each back and would read each back to do so.
"""

import os
import tempfile
import threading
from collections.abc import Iterator
from typing import IO, Annotated, Any

from pydantic import AfterValidator, GetCoreSchemaHandler, ValidationInfo
from pydantic_core import core_schema, from_json, to_json

SPOOL = "spool"  # the key of a TextSpool in a validation's context
PARAGRAPHS = "paragraphs"  # the key that says its TextSpool sets `LongParagraphs` aside too
BUFFER_BYTES = 1 << 20  # texts written at once to the spool's file: hundreds of excerpts
WINDOW_BYTES = 1 << 17  # read back at once around a text: dozens of excerpts


class TextSpool:
    """A temporary file, unnamed and opened at its first text, that texts are appended to and read
    back from. It is deleted once nothing refers to it.

    A removal that shifts every frozen page after its episode's sets aside 99,000 excerpts and reads
    each back as it writes its page again, while its other threads render and send. A call into the
    kernel lets another thread take the interpreter, and then waits to get it back: a write or a
    read for each text took a third of that removal's CPU at 20,000 episodes. So texts are written
    through a large buffer, and read back a window at a time: the texts around one are most often
    the next ones read, in either order (a page's entries oldest first, a feed's newest first)."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._end = 0  # where the next text goes
        self._written = 0  # how much of it is in the file, past its buffer
        self._window, self._window_start = b"", 0  # the part of the file read last
        self._lock = threading.Lock()

    @property
    def context(self) -> dict[str, Any]:
        """The validation context under which a `LongText` field is set aside here."""
        return {SPOOL: self}

    @property
    def context_with_paragraphs(self) -> dict[str, Any]:
        """The validation context under which a `LongParagraphs` field is set aside here too."""
        return {SPOOL: self, PARAGRAPHS: True}

    def put(self, text: str) -> "SpooledText":
        data = text.encode()
        return SpooledText(self, self.append(data), len(data), len(text))

    def append(self, data: bytes) -> int:
        """Write `data` at the spool's end: the offset it starts at."""
        with self._lock:
            if self._file is None:
                self._file = tempfile.TemporaryFile(buffering=BUFFER_BYTES)  # noqa: SIM115 - open while referred to
            self._file.write(data)
            offset, self._end = self._end, self._end + len(data)
        return offset

    def read(self, offset: int, size: int) -> str:
        return self.read_bytes(offset, size).decode()

    def read_bytes(self, offset: int, size: int) -> bytes:
        with self._lock:
            start = self._window_start
            if start <= offset and offset + size <= start + len(self._window):
                return self._window[offset - start : offset - start + size]
            assert self._file is not None
            if offset + size > self._written:
                self._file.flush()
                self._written = self._end
            if size > WINDOW_BYTES // 2:  # a long text, read alone
                return os.pread(self._file.fileno(), size, offset)
            start = max(0, offset - WINDOW_BYTES // 2)  # holds the text, and about as much on each side
            self._window, self._window_start = os.pread(self._file.fileno(), WINDOW_BYTES, start), start
            return self._window[offset - start : offset - start + size]


class SpooledText:
    """A text in a TextSpool: its length known, its characters read back at each `str()`."""

    __slots__ = ("_length", "_offset", "_size", "_spool")

    def __init__(self, spool: TextSpool, offset: int, size: int, length: int):
        self._spool, self._offset, self._size, self._length = spool, offset, size, length

    def __str__(self) -> str:
        return self._spool.read(self._offset, self._size)

    def __len__(self) -> int:
        return self._length

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SpooledText) and (other._spool, other._offset) == (self._spool, self._offset):
            return True
        if isinstance(other, str | SpooledText):
            return len(other) == self._length and str(other) == str(self)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return f"SpooledText({self._length} characters at {self._offset})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.is_instance_schema(
            cls, serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="always")
        )


class SpooledParagraphs:
    """Paragraphs in a TextSpool, as the JSON of their list, read back at each iteration."""

    __slots__ = ("_offset", "_size", "_spool")

    def __init__(self, spool: TextSpool, paragraphs: tuple[str, ...]):
        data = to_json(paragraphs)  # pydantic's: a fifth of the time `json.dumps` takes
        self._spool, self._offset, self._size = spool, spool.append(data), len(data)

    def __iter__(self) -> Iterator[str]:
        paragraphs: list[str] = from_json(self._spool.read_bytes(self._offset, self._size))
        return iter(paragraphs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SpooledParagraphs | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"SpooledParagraphs({self._size} bytes at {self._offset})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.is_instance_schema(
            cls, serialization=core_schema.plain_serializer_function_ser_schema(list, when_used="always")
        )


def _spool(info: ValidationInfo, *keys: str) -> TextSpool | None:
    """The TextSpool in the validation's context, if it has one, and each of `keys` too."""
    context = info.context if isinstance(info.context, dict) else {}
    spool = context.get(SPOOL)
    return spool if isinstance(spool, TextSpool) and all(context.get(key) for key in keys) else None


def _set_aside(text: str | SpooledText | None, info: ValidationInfo) -> str | SpooledText | None:
    spool = _spool(info)
    return spool.put(text) if spool and isinstance(text, str) else text


def _set_paragraphs_aside(
    paragraphs: tuple[str, ...] | SpooledParagraphs, info: ValidationInfo
) -> tuple[str, ...] | SpooledParagraphs:
    spool = _spool(info, PARAGRAPHS)
    if spool and isinstance(paragraphs, tuple) and paragraphs:
        return SpooledParagraphs(spool, paragraphs)
    return paragraphs


# A text that a TextSpool in the validation's context sets aside; kept in memory without one.
LongText = Annotated[str | SpooledText | None, AfterValidator(_set_aside)]


# Paragraphs that a TextSpool in the validation's context sets aside, if there are any and the
# context says so (`TextSpool.context_with_paragraphs`).
LongParagraphs = Annotated[tuple[str, ...] | SpooledParagraphs, AfterValidator(_set_paragraphs_aside)]


def text_of(value: str | SpooledText | None) -> str | None:
    """The characters of a `LongText`, read back if they were set aside."""
    return value if value is None or isinstance(value, str) else str(value)


def paragraphs_of(value: tuple[str, ...] | SpooledParagraphs) -> tuple[str, ...]:
    """The paragraphs of a `LongParagraphs`, read back if they were set aside."""
    return value if isinstance(value, tuple) else tuple(value)
