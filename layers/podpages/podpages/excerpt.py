"""Cutting text to size for crawlers: the transcript excerpt and the meta description."""

import re

ELLIPSIS = "…"
META_DESCRIPTION_CHARS = 155
_BLANK_LINE = re.compile(r"\n\s*\n")
_TRAILING = " \t\n,;:—–-"


def paragraphs(text: str) -> list[str]:
    """Paragraphs are separated by blank lines; white space inside one folds to single spaces."""
    return [folded for block in _BLANK_LINE.split(text) if (folded := " ".join(block.split()))]


def excerpt(transcript: str, limit: int) -> list[str]:
    """Whole paragraphs while they fit in `limit` characters, then the next one cut at a word and closed with "…"."""
    kept: list[str] = []
    used = 0
    for paragraph in paragraphs(transcript):
        if used + len(paragraph) <= limit:
            kept.append(paragraph)
            used += len(paragraph)
            continue
        cut = cut_at_word(paragraph, limit - used)
        if cut:
            kept.append(cut)
        break
    return kept


def meta_description(summary: str) -> str:
    """The summary on one line, cut at a word to at most 155 characters."""
    line = " ".join(summary.split())
    return line if len(line) <= META_DESCRIPTION_CHARS else cut_at_word(line, META_DESCRIPTION_CHARS)


def cut_at_word(text: str, limit: int) -> str:
    """At most `limit` characters of `text`, ending at a word boundary and then "…"; empty if no word fits."""
    room = limit - len(ELLIPSIS)
    if room <= 0:
        return ""
    # Cut just before the character past the room if it is a space, else back to the last space.
    head = text[:room] if text[room : room + 1].isspace() else text[:room].rpartition(" ")[0]
    head = head.rstrip(_TRAILING)
    return f"{head}{ELLIPSIS}" if head else ""
