"""A batch of changes to one show, folded into its catalog, with what they made stale."""

from dataclasses import dataclass, field

from podpages.catalog.changes import Change, EpisodePut, EpisodeRemoved, TranscriptPut, TranscriptRemoved
from podpages.catalog.layout import check_listings
from podpages.catalog.model import Catalog
from podpages.catalog.staleness import Refresh, stale, transcript_page_stale, transcript_update
from podpages.errors import ContractError
from podpages.settings import Settings


@dataclass
class ShowUpdate:
    after: Catalog
    refresh: Refresh
    applied: list[Change] = field(default_factory=list)  # changes that were not no-ops
    rejected: list[tuple[Change, ContractError]] = field(default_factory=list)


def fold(before: Catalog, changes: list[Change], settings: Settings) -> ShowUpdate:
    """Apply `changes` in order. One that the catalog refuses (a changed GUID) is set aside, not applied.
    NotLoaded when the catalog, read a window at a time, proves too narrow for them."""
    after = before
    applied: list[Change] = []
    rejected: list[tuple[Change, ContractError]] = []
    touched: set[str] = set()  # episodes whose transcript may have changed
    shown: set[str] = set()  # of those, the ones whose companion was published before a change of the batch
    for change in changes:
        try:
            result = after.apply(change, settings.excerpt_chars)
        except ContractError as error:
            rejected.append((change, error))
            continue
        if result is not after:
            applied.append(change)
            if (slug := _episode_of(change)) and _transcript_touched(after, result, change, slug):
                touched.add(slug)
                shown |= {slug} if _shows_companion(after, slug) else set()
        after = result
    check_listings(before, after, settings.feed_max_items)
    refresh = stale(before, after, settings.nearby_count, settings.feed_max_items)
    after.check_listed(refresh.years)  # their archive pages are rendered again
    pages = {slug for slug in refresh.episodes if transcript_page_stale(before, after, slug)}
    refresh.transcripts = {
        slug: transcript_update(after, slug, had_companion=slug in shown, files=slug in touched)
        for slug in touched | pages
    }
    return ShowUpdate(after, refresh, applied, rejected)


def _episode_of(change: Change) -> str | None:
    """The episode whose transcript files an applied change may alter."""
    match change:
        case EpisodePut(source=source) | EpisodeRemoved(source=source):
            return source.episode_slug
        case TranscriptPut(source=source) | TranscriptRemoved(source=source):
            return source.episode_slug
    return None


def _transcript_touched(before: Catalog, after: Catalog, change: Change, slug: str) -> bool:
    """Whether an applied change may alter the episode's transcript files. An episode's JSON does
    not, when the episode was published before with the same transcript text, or with a companion
    transcript, whose files it leaves as they are; its transcript page, which shows the episode's
    title, is told apart (`transcript_page_stale`)."""
    if not isinstance(change, EpisodePut):
        return True
    old, new = before.entry(slug), after.entry(slug)
    if old is None or new is None:
        return True
    return after.companion(slug) is None and new.transcript_file_differs(old)


def _shows_companion(catalog: Catalog, slug: str) -> bool:
    """Whether the episode is published with a companion transcript."""
    return catalog.entry(slug) is not None and catalog.companion(slug) is not None
