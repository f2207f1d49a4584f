"""A batch of changes to one show, folded into its catalog, with what they made stale."""

from dataclasses import dataclass, field

from podpages.catalog.changes import Change, EpisodePut, EpisodeRemoved
from podpages.catalog.model import Catalog
from podpages.catalog.staleness import Refresh, stale
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
    transcripts: dict[str, str | None] = {}
    for change in changes:
        try:
            result = after.apply(change, settings.excerpt_chars)
        except ContractError as error:
            rejected.append((change, error))
            continue
        if result is not after:
            applied.append(change)
            transcripts |= _transcript(change)
        after = result
    refresh = stale(before, after, settings.nearby_count)
    refresh.transcripts = transcripts
    return ShowUpdate(after, refresh, applied, rejected)


def _transcript(change: Change) -> dict[str, str | None]:
    """The transcript file an applied change publishes (text) or removes (None)."""
    match change:
        case EpisodePut(source=source, episode=episode):
            return {source.episode_slug: episode.transcript}
        case EpisodeRemoved(source=source):
            return {source.episode_slug: None}
    return {}
