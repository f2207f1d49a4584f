"""What the publish path renders transcripts from (`plans.TranscriptSources`): the uploads a batch
read, and any other read from the source bucket when it is asked for."""

from podpages.catalog.changes import Change, EpisodePut, TranscriptPut, put, transcript_of
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.errors import ContractError
from podpages.storage.source_bucket import SourceBucket


class UploadedTranscripts:
    """Upload key -> its transcript: from the batch's own changes, a companion's cues read back from
    where the batch set them down (`TranscriptPut.spooled`), or else read from the source bucket (an
    episode's JSON arriving after its companion, a companion removed and its JSON's text taking
    over, a rebuild). Each is read when it is asked for, and not held after. Read first, every
    transcript of a rebuild request's 250 episodes was held until the last was rendered: 66 MB of
    cues where each had an hour's companion (0.27 MB, 600 cues)."""

    def __init__(self, source: SourceBucket, changes: list[Change]):
        self.source = source
        self.uploads = {
            change.source.key: change for change in changes if isinstance(change, EpisodePut | TranscriptPut)
        }

    def get(self, key: str, /) -> str | tuple[Cue, ...] | None:
        return transcript_of(self.uploads[key]) if key in self.uploads else self.read(key)

    def read(self, key: str) -> str | tuple[Cue, ...] | None:
        """A transcript's upload, published before; None when it is gone or no longer reads (its own
        event reports that)."""
        source = parse_source_key(key)
        body = self.source.read_upload(key, source.max_bytes)
        try:
            return None if body is None else transcript_of(put(source, body))
        except ContractError:
            return None
