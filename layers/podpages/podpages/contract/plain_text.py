"""Plain-text fields: any Unicode a person would type, in one normal form, and nothing that only
looks like text.

Markup is allowed, and escaped on output. Control characters are rejected, because XML 1.0
cannot carry them and HTML validators flag them; so are noncharacters. Text is read in Unicode
Normalization Form C, so that pages, feeds and JSON-LD carry one form of the same words. A
one-line field (a title, a name) may not carry bidi embeddings, overrides or isolates, which
would reorder what follows it on a page, and no text may be only invisible characters.
"""

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

from podpages.printable import PRINTABLE_ASCII, printable

# C0 controls except tab, newline and carriage return; DEL and C1; lone surrogates; the noncharacters
# of every plane (U+FDD0..U+FDEF and each plane's last two code points).
_NONCHARACTERS = "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0x10000, 0x110000, 0x10000))
_FORBIDDEN_IN_BMP = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
_FORBIDDEN = re.compile(f"[{_FORBIDDEN_IN_BMP}{_NONCHARACTERS}]")
# A class that lists code points beyond the BMP makes `re` test each character against a list, ten
# times slower. So one pass looks for a forbidden character of the BMP or any character beyond it, and
# only text holding one of those (emoji, say) is searched again, from there, with the whole class.
_FORBIDDEN_OR_BEYOND_BMP = re.compile(f"[{_FORBIDDEN_IN_BMP}\U00010000-\U0010ffff]")
# What ASCII text may hold: its printable characters, tab, newline and carriage return.
_ALLOWED_ASCII = b"\t\n\r" + PRINTABLE_ASCII
# Embeddings and overrides (U+202A..U+202E) and isolates (U+2066..U+2069). The marks LRM and RLM
# stay allowed: they change no order beyond their own neighbours.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
# Categories that draw nothing: separators, controls and formats, marks with no base, private use.
_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me", "Co", "Cn"})
# Letters and symbols that render as blank space: the Hangul fillers and the blank braille pattern.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# What breaks a line: newline and carriage return, and Unicode's line and paragraph separators.
_LINE_BREAKS = ("\n", "\r", "\u2028", "\u2029")


def check_characters(value: str) -> str:
    """Reject a control character, lone surrogate or noncharacter anywhere in `value`, URLs and addresses too."""
    if _surely_allowed(value):
        return value
    found = _FORBIDDEN_OR_BEYOND_BMP.search(value)
    if found and ord(found.group()) > 0xFFFF:
        found = _FORBIDDEN.search(value, found.start())
    if found:
        code = ord(found.group())
        kind = "control character" if code <= 0x9F else "lone surrogate" if code <= 0xDFFF else "noncharacter"
        raise ValueError(f"contains the {kind} U+{code:04X} at position {found.start()}")
    return value


def _surely_allowed(value: str) -> bool:
    """Whether tests quicker than `check_characters`' search show `value` free of what it rejects: a
    100,000-character transcript took 0.4 ms to search. ASCII text may hold none of its controls but
    tab, newline and carriage return (of a transcript of 3,700 characters, 2.4 us to test, where each
    line took 11 us). Other text is tested a line at a time with `isprintable`, which refuses every
    character the search rejects (Cc, Cs, and Cn for the noncharacters), but the line whole first:
    split into one line, it took three times as long. Text it refuses (a tab, a no-break space) is searched."""
    if value.isascii():
        return not value.encode().translate(None, _ALLOWED_ASCII)
    return value.isprintable() or all(line.isprintable() for line in value.split("\n"))


def nfc(value: str) -> str:
    """The text in Unicode Normalization Form C."""
    return unicodedata.normalize("NFC", value)


def _visible(character: str) -> bool:
    return unicodedata.category(character) not in _INVISIBLE_CATEGORIES and character not in _BLANK_LETTERS


def _printable(value: str) -> str:
    check_characters(value)
    # ASCII text that passed draws nothing only if it is all white space: a quicker test, and the usual case.
    blank = value.isspace() if value.isascii() else not any(_visible(character) for character in value)
    if blank:
        raise ValueError("must not be blank: it has no visible character")
    return value


def _single_line(value: str) -> str:
    if printable(value):  # every line break and bidi control is a character `isprintable` refuses
        return value
    if any(separator in value for separator in _LINE_BREAKS):
        raise ValueError("must be a single line")
    found = _BIDI_CONTROLS.search(value)
    if found:
        code = ord(found.group())
        position = found.start()
        raise ValueError(f"contains the bidi control U+{code:04X} at position {position}: it reorders what follows")
    return value


PlainText = Annotated[str, Field(min_length=1), AfterValidator(nfc), AfterValidator(_printable)]
Line = Annotated[PlainText, AfterValidator(_single_line)]
