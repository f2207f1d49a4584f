"""Plain-text fields: any Unicode a person would type, but no control characters.

Markup is allowed, and escaped on output. Control characters are rejected, because
XML 1.0 cannot carry them and HTML validators flag them.
"""

import re
from typing import Annotated

from pydantic import AfterValidator, Field

# C0 controls except tab, newline and carriage return; DEL and C1; lone surrogates; noncharacters.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def _printable(value: str) -> str:
    found = _FORBIDDEN.search(value)
    if found:
        raise ValueError(f"contains the control character U+{ord(found.group()):04X} at position {found.start()}")
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _single_line(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError("must be a single line")
    return value


PlainText = Annotated[str, Field(min_length=1), AfterValidator(_printable)]
Line = Annotated[PlainText, AfterValidator(_single_line)]
