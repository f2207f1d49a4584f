"""An episode's `content:encoded`: its show notes, then the chapters as a list of timestamps.

Many apps read no chapter format at all but turn the timestamps of a description into links, the way
YouTube does, and they trust such a list only when it starts at 0:00 and has a few entries; so the list
is written when there are 3 or more chapters and the first starts at 0. Each time has the form the
whole list shares: M:SS, or H:MM:SS for an episode of an hour or more.
"""

from datetime import timedelta
from html import escape

from podpages.contract.chapters import Chapter
from podpages.durations import clock

MIN_LISTED_CHAPTERS = 3


def content_encoded(notes_html: str | None, chapters: tuple[Chapter, ...] | None, duration: timedelta) -> str | None:
    """The HTML for `content:encoded`, or None when the episode has neither notes nor a list to give."""
    parts = [part for part in (notes_html, timestamp_list(chapters or (), duration)) if part]
    return "\n".join(parts) or None


def timestamp_list(chapters: tuple[Chapter, ...], duration: timedelta) -> str | None:
    """`<p>0:00 Welcome<br>1:35 What changed</p>`, one line a chapter; None when apps would not trust it."""
    if len(chapters) < MIN_LISTED_CHAPTERS or chapters[0].start != 0:
        return None
    with_hours = duration >= timedelta(hours=1)
    lines = [f"{clock(chapter.start, with_hours)} {escape(chapter.title, quote=False)}" for chapter in chapters]
    return "<p>" + "<br>".join(lines) + "</p>"
