"""A batch of changes to one show, folded into its catalog, with what they made stale."""

from dataclasses import dataclass, field

from podpages.catalog.changes import Change, EpisodePut, EpisodeRemoved, TranscriptPut, TranscriptRemoved
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
    """Apply `changes` in order. One that the catalog refuses (a changed GUID) is set aside, not applied."""
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
            if slug := _episode_of(change):
                touched.add(slug)
                shown |= {slug} if _shows_companion(after, slug) else set()
        after = result
    refresh = stale(before, after, settings.nearby_count, settings.feed_max_items)
    pages = {slug for slug in refresh.episodes if transcript_page_stale(before, after, slug)}
    refresh.transcripts = {
        slug: transcript_update(after, slug, had_companion=slug in shown) for slug in touched | pages
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


def _shows_companion(catalog: Catalog, slug: str) -> bool:
    """Whether the episode is published with a companion transcript."""
    return catalog.entry(slug) is not None and catalog.companion(slug) is not None
