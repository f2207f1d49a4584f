"""Long texts of catalog entries set aside on the local disk while a publish holds the catalog.

At the contract's maxima a publish reads 1,000 entries of 160 KB, 150 KB of it chapters, show notes
and lists, which only a few pages, the feed's items and the index's own lines print, one entry at a
time. Held in memory they took 150 MB of the render function's 256; set aside in a temporary file
(Lambda's `/tmp`) they cost a few bytes each, and are read back by whichever prints them.
"""

import os
import tempfile
import threading
from typing import IO, Annotated, Any

from pydantic import AfterValidator, GetCoreSchemaHandler, ValidationInfo
from pydantic_core import core_schema

SPOOL = "spool"  # the key of a TextSpool in a validation's context


class TextSpool:
    """A temporary file, unnamed and opened at its first text, that texts are appended to and read
    back from. It is deleted once nothing refers to it."""

    def __init__(self) -> None:
        self._file: IO[bytes] | None = None
        self._end = 0
        self._lock = threading.Lock()

    @property
    def context(self) -> dict[str, Any]:
        """The validation context under which a `LongText` field is set aside here."""
        return {SPOOL: self}

    def put(self, text: str) -> "SpooledText":
        data = text.encode()
        with self._lock:
            if self._file is None:
                self._file = tempfile.TemporaryFile()  # noqa: SIM115 - open while the spool is referred to
            self._file.write(data)
            self._file.flush()  # before anyone reads it back, by its offset
            offset, self._end = self._end, self._end + len(data)
        return SpooledText(self, offset, len(data), len(text))

    def read(self, offset: int, size: int) -> str:
        assert self._file is not None
        return os.pread(self._file.fileno(), size, offset).decode()


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


def _set_aside(text: str | SpooledText | None, info: ValidationInfo) -> str | SpooledText | None:
    spool = info.context.get(SPOOL) if isinstance(info.context, dict) else None
    return spool.put(text) if isinstance(spool, TextSpool) and isinstance(text, str) else text


# A text that a TextSpool in the validation's context sets aside; kept in memory without one.
LongText = Annotated[str | SpooledText | None, AfterValidator(_set_aside)]


def text_of(value: str | SpooledText | None) -> str | None:
    """The characters of a `LongText`, read back if they were set aside."""
    return value if value is None or isinstance(value, str) else str(value)
