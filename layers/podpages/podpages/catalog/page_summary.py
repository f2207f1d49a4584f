"""What a show's catalog index keeps of each frozen page (`feed_archives`) it does not hold: enough to
count, list years and find an episode without reading the page.

The page itself, its part of the nearby index, its entries and their companion transcripts, is
stored apart (`catalog.layout`); the summary names it by its digest.
"""

from datetime import datetime

from pydantic import BaseModel, ConfigDict


class YearCount(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int
    latest: datetime  # the newest `published` of the page's episodes of that year, in UTC


class PageSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    digest: str  # of the stored page: its object is catalog/<show>/page-<n>-<digest>.json
    count: int
    last: tuple[datetime, str]  # the order of its newest episode: a later one belongs after the page
    years: dict[int, YearCount]
    # `stored.slug_hash` of each of its slugs, end to end, as the nearby index keeps them; the index
    # stores them there alone, and its reader sets them here (`layout.read_index`).
    slugs: str = ""
    guids: str  # likewise, of the GUIDs its publishers chose (a default GUID is its slug's own)
    nearby: str  # the digest of its part of the nearby index (`catalog.nearby_index`), written with it
    # That part's length at the head of the page's object; 0 where it is an object of its own (layout 6).
    nearby_bytes: int = 0
