"""What one S3 event asks of a show's catalog, once its upload has been read and checked."""

from dataclasses import dataclass

from podpages.contract.documents import Episode, Show
from podpages.contract.source_keys import SourceKey


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


type Change = EpisodePut | EpisodeRemoved | ShowPut | ShowRemoved
