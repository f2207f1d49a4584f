"""What one S3 event asks of a show's catalog, once its upload has been read and checked."""

from collections.abc import Iterable
from dataclasses import dataclass

from podpages.contract.companion_transcripts import Cue, parse_companion
from podpages.contract.documents import Episode, Show, parse_episode, parse_show
from podpages.contract.source_keys import Kind, SourceKey


@dataclass(frozen=True)
class EpisodePut:
    source: SourceKey
    episode: Episode
    sequencer: str | None = None


@dataclass(frozen=True)
class EpisodeRemoved:
    source: SourceKey
    sequencer: str | None = None


@dataclass(frozen=True)
class ShowPut:
    source: SourceKey
    show: Show
    sequencer: str | None = None


@dataclass(frozen=True)
class ShowRemoved:
    source: SourceKey
    sequencer: str | None = None


@dataclass(frozen=True)
class TranscriptPut:
    """A companion transcript, `episodes/<show>/<episode>.vtt` or `.srt`, read into its cues."""

    source: SourceKey
    cues: tuple[Cue, ...]
    sequencer: str | None = None


@dataclass(frozen=True)
class TranscriptRemoved:
    source: SourceKey
    sequencer: str | None = None


type Change = EpisodePut | EpisodeRemoved | ShowPut | ShowRemoved | TranscriptPut | TranscriptRemoved

type Removal = EpisodeRemoved | ShowRemoved | TranscriptRemoved
REMOVALS: dict[Kind, type[Removal]] = {
    Kind.EPISODE: EpisodeRemoved,
    Kind.SHOW: ShowRemoved,
    Kind.TRANSCRIPT: TranscriptRemoved,
}


def put(source: SourceKey, body: bytes, sequencer: str | None = None) -> EpisodePut | ShowPut | TranscriptPut:
    """What an upload's bytes ask of its show's catalog, checked against the contract: a
    ContractError names each thing wrong."""
    match source.kind:
        case Kind.EPISODE:
            return EpisodePut(source, parse_episode(body), sequencer)
        case Kind.TRANSCRIPT:
            return TranscriptPut(source, parse_companion(body, source.format), sequencer)
    return ShowPut(source, parse_show(body), sequencer)


def removal(source: SourceKey, sequencer: str | None) -> Removal:
    """What an ObjectRemoved event on an upload asks of its show's catalog."""
    return REMOVALS[source.kind](source, sequencer)


def is_removal(change: Change) -> bool:
    return isinstance(change, (EpisodeRemoved, ShowRemoved, TranscriptRemoved))


def transcripts_in(changes: Iterable[Change]) -> dict[str, str | tuple[Cue, ...]]:
    """What the uploads of `changes` say as transcripts, by key: an episode JSON's text, a companion's cues."""
    found: dict[str, str | tuple[Cue, ...]] = {}
    for change in changes:
        match change:
            case EpisodePut(source=source, episode=episode) if episode.transcript is not None:
                found[source.key] = episode.transcript
            case TranscriptPut(source=source, cues=cues):
                found[source.key] = cues
    return found
