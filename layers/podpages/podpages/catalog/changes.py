"""What one S3 event asks of a show's catalog, once its upload has been read and checked."""

from collections.abc import Iterable
from dataclasses import dataclass, replace

from podpages.catalog.spooled_cues import SpooledCues
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
    """A companion transcript, `episodes/<show>/<episode>.vtt` or `.srt`, read into its cues: held,
    or set down on the local disk until they are asked for (`spooled`)."""

    source: SourceKey
    kept: tuple[Cue, ...] | SpooledCues
    sequencer: str | None = None

    @property
    def cues(self) -> tuple[Cue, ...]:
        """Its cues: those held, or those set down, read back anew."""
        return self.kept if isinstance(self.kept, tuple) else self.kept.read()

    def spooled(self) -> "TranscriptPut":
        """This change with its cues set down, for a batch to keep until it publishes."""
        return replace(self, kept=SpooledCues.alone(self.cues))


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


def transcript_of(change: Change) -> str | tuple[Cue, ...] | None:
    """What the upload of `change` says as a transcript: an episode JSON's text, a companion's cues."""
    match change:
        case EpisodePut(episode=episode):
            return episode.transcript
        case TranscriptPut():
            return change.cues
    return None


def transcripts_in(changes: Iterable[Change]) -> dict[str, str | tuple[Cue, ...]]:
    """What the uploads of `changes` say as transcripts, by key."""
    return {change.source.key: transcript for change in changes if (transcript := transcript_of(change)) is not None}
