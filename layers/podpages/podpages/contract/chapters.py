"""An episode's chapters: where each part of the audio starts, and what it is called.

They follow the podcast namespace's JSON chapters (`startTime`, `title`, `url`, `img`, `toc`), named as
the contract names fields. Their starts rise strictly, so no two chapters share a moment; that each
starts before the audio ends is the episode's check (`starts_past_the_end`), since only it knows its
duration.
"""

from datetime import timedelta
from typing import Annotated

from pydantic import AfterValidator, Field

from podpages.contract.fields import Contract, FieldPath, HttpsUrl, Seconds, reject, seconds_text
from podpages.contract.plain_text import Line

MAX_CHAPTERS = 500


class Chapter(Contract):
    """One chapter: it runs from its `start` to the next chapter's, or to the end of the audio."""

    start: Seconds
    title: Annotated[Line, Field(max_length=200)]
    url: HttpsUrl | None = None  # a page about what the chapter covers
    image: HttpsUrl | None = None
    toc: bool = True  # false: a chapter players leave out of their table of contents, such as an ad


def _rising(chapters: tuple[Chapter, ...]) -> tuple[Chapter, ...]:
    faults: list[tuple[FieldPath, str, object]] = [
        (
            (index, "start"),
            f"must be later than chapter {index - 1}'s start, {seconds_text(earlier.start)} s",
            chapter.start,
        )
        for index, (earlier, chapter) in enumerate(zip(chapters, chapters[1:], strict=False), start=1)
        if chapter.start <= earlier.start
    ]
    if faults:
        reject(faults)
    return chapters


Chapters = Annotated[
    tuple[Chapter, ...],
    Field(min_length=1, max_length=MAX_CHAPTERS, description="in order of their starts, which rise strictly"),
    AfterValidator(_rising),
]


def starts_past_the_end(chapters: tuple[Chapter, ...], duration: timedelta) -> list[tuple[FieldPath, str, object]]:
    """Each chapter that starts at or after the end of the audio, as (path below `chapters`, message, start)."""
    end = duration.total_seconds()
    return [
        ((index, "start"), f"must be before the end of the audio, {seconds_text(end)} s", chapter.start)
        for index, chapter in enumerate(chapters)
        if chapter.start >= end
    ]
