"""Cutting text to size for crawlers: the transcript excerpt and the meta description."""

import re
import unicodedata
from collections.abc import Iterator

from podpages.printable import printable

ELLIPSIS = "…"
META_DESCRIPTION_CHARS = 155
_BLANK_LINE = re.compile(r"\n\s*\n")
_TRAILING = " \t\n,;:—–-"
_ZWJ = "\u200d"
# Characters that belong to the cluster before them besides the marks (Unicode's Grapheme_Extend
# and SpacingMark, in short): the ZWJ, skin-tone modifiers and the tags of subdivision flags.
# Variation selectors are marks (Mn) already.
_EXTENDERS = ((0x200D, 0x200D), (0x1F3FB, 0x1F3FF), (0xE0020, 0xE007F))
_REGIONAL_INDICATORS = (0x1F1E6, 0x1F1FF)


def paragraphs(text: str) -> list[str]:
    """Paragraphs are separated by blank lines; white space inside one folds to single spaces."""
    return list(_paragraphs(text))


def _paragraphs(text: str) -> Iterator[str]:
    """The paragraphs, each found and folded only when it is asked for: an excerpt takes the first
    few of a transcript of up to 100,000 characters."""
    return (folded for block in _blocks(text) if (folded := fold(block)))


def fold(text: str) -> str:
    """The text with each run of white space made one space, and none at either end. Text that is
    folded already, most paragraphs, is returned as it is: splitting and joining a paragraph of
    470 characters took 5 µs, and this test a tenth of that. Where `isprintable` holds, the ASCII
    space is the text's only white space."""
    if printable(text) and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


def _blocks(text: str) -> Iterator[str]:
    """The text between blank lines, as `_BLANK_LINE.split` gives it, one block at a time."""
    start = 0
    for blank in _BLANK_LINE.finditer(text):
        yield text[start : blank.start()]
        start = blank.end()
    yield text[start:]


def excerpt(transcript: str, limit: int) -> list[str]:
    """Whole paragraphs while they fit in `limit` characters, then the next one cut at a word and closed with "…".

    A later paragraph no word of which fits is left out, but the first is cut between graphemes
    instead (text without spaces), so the excerpt is empty only when the transcript or the budget is."""
    kept: list[str] = []
    used = 0
    for paragraph in _paragraphs(transcript):
        if used + len(paragraph) <= limit:
            kept.append(paragraph)
            used += len(paragraph)
            continue
        room = limit - used
        cut = cut_at_word(paragraph, room) if kept else cut_to_fit(paragraph, room)
        if cut:
            kept.append(cut)
        break
    return kept


def meta_description(summary: str) -> str:
    """The summary on one line, cut to at most 155 characters: at a word, or between graphemes if none fits."""
    line = fold(summary)
    return line if len(line) <= META_DESCRIPTION_CHARS else cut_to_fit(line, META_DESCRIPTION_CHARS)


def cut_to_fit(text: str, limit: int) -> str:
    """At most `limit` characters of `text` and then "…": at a word boundary where one fits, else
    (Chinese, Japanese, one long word) at a grapheme boundary; empty only if `limit` leaves no room."""
    return cut_at_word(text, limit) or cut_at_grapheme(text, limit)


def cut_at_word(text: str, limit: int) -> str:
    """At most `limit` characters of `text`, ending at a word boundary and then "…"; empty if no word fits."""
    room = limit - len(ELLIPSIS)
    if room <= 0:
        return ""
    # Cut just before the character past the room if it is a space, else back to the last space.
    head = text[:room] if text[room : room + 1].isspace() else text[:room].rpartition(" ")[0]
    head = head.rstrip(_TRAILING)
    return f"{head}{ELLIPSIS}" if head else ""


def cut_at_grapheme(text: str, limit: int) -> str:
    """At most `limit` characters of `text` and then "…", cut where a reader sees one character end,
    never between a letter and its accent, inside an emoji sequence or between a flag's two letters."""
    end = limit - len(ELLIPSIS)
    if end <= 0:
        return ""
    while end > 0 and not is_grapheme_boundary(text, end):
        end -= 1
    head = text[:end].rstrip(_TRAILING)
    return f"{head}{ELLIPSIS}" if head else ""


def is_grapheme_boundary(text: str, index: int) -> bool:
    """Whether a user-perceived character ends just before `text[index]`: Unicode's rules (UAX #29)
    for marks, emoji sequences and flags. Hangul jamo and prepended marks are not handled, and nothing
    is cut after a ZWJ even where no emoji follows: a cut that errs keeps a character too few, never a half."""
    if index <= 0 or index >= len(text):
        return True
    before, after = text[index - 1], text[index]
    if before == _ZWJ or _extends(after):
        return False
    if _is_regional_indicator(before) and _is_regional_indicator(after):
        # Flags pair their letters from the left: an odd run before `after` awaits its second.
        return _regional_indicators_before(text, index) % 2 == 0
    return True


def _extends(char: str) -> bool:
    """Whether `char` joins the cluster before it rather than starting its own."""
    code = ord(char)
    return unicodedata.category(char).startswith("M") or any(low <= code <= high for low, high in _EXTENDERS)


def _is_regional_indicator(char: str) -> bool:
    low, high = _REGIONAL_INDICATORS
    return low <= ord(char) <= high


def _regional_indicators_before(text: str, index: int) -> int:
    """How many regional indicators run up to `index`."""
    run = 0
    while index - run > 0 and _is_regional_indicator(text[index - run - 1]):
        run += 1
    return run
