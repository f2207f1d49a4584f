"""Plain-text fields: any Unicode a person would type, but no control characters or noncharacters.

Markup is allowed, and escaped on output. Control characters are rejected, because
XML 1.0 cannot carry them and HTML validators flag them; so are noncharacters.
"""

import re
from typing import Annotated

from pydantic import AfterValidator, Field

# C0 controls except tab, newline and carriage return; DEL and C1; lone surrogates; the noncharacters
# of every plane (U+FDD0..U+FDEF and each plane's last two code points).
_NONCHARACTERS = "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0x10000, 0x110000, 0x10000))
_FORBIDDEN = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff{_NONCHARACTERS}]")


def check_characters(value: str) -> str:
    """Reject a control character, lone surrogate or noncharacter anywhere in `value`, URLs and addresses too."""
    found = _FORBIDDEN.search(value)
    if found:
        code = ord(found.group())
        kind = "control character" if code <= 0x9F else "lone surrogate" if code <= 0xDFFF else "noncharacter"
        raise ValueError(f"contains the {kind} U+{code:04X} at position {found.start()}")
    return value


def _printable(value: str) -> str:
    check_characters(value)
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _single_line(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError("must be a single line")
    return value


PlainText = Annotated[str, Field(min_length=1), AfterValidator(_printable)]
Line = Annotated[PlainText, AfterValidator(_single_line)]
