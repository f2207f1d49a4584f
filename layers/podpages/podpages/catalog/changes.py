"""What one S3 event asks of a show's catalog, once its upload has been read and checked."""

from dataclasses import dataclass

from podpages.contract.companion_transcripts import Cue
from podpages.contract.documents import Episode, Show
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


def removal(source: SourceKey, sequencer: str | None) -> Removal:
    """What an ObjectRemoved event on an upload asks of its show's catalog."""
    return REMOVALS[source.kind](source, sequencer)


def is_removal(change: Change) -> bool:
    return isinstance(change, (EpisodeRemoved, ShowRemoved, TranscriptRemoved))
