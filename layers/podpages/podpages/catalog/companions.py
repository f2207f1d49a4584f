"""The companion transcripts a show's catalog knows of: for each file in the source bucket, which
event put it there and the excerpt its text gives the episode's page. The cues stay in the file, and
the publish reads them only when it writes the transcript's own files.

A companion may arrive before its episode's JSON; it is kept all the same, and published once the
episode is. An episode may have both a `.vtt` and an `.srt`: WebVTT wins, since it names the speakers,
whichever came first, so that every order of arrival ends in the same site.
"""

import hashlib
import json

from pydantic import BaseModel, ConfigDict

from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import EPISODES_PREFIX, CompanionFormat, SourceKey
from podpages.contract.transcript_paragraphs import full_text
from podpages.excerpt import excerpt

PREFERENCE: tuple[CompanionFormat, ...] = ("vtt", "srt")


class Companion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str
    format: CompanionFormat
    sequencer: str | None = None
    excerpt: tuple[str, ...] = ()
    digest: str  # of its cues: whether an upload is the one the catalog holds

    @classmethod
    def of(cls, source: SourceKey, cues: tuple[Cue, ...], sequencer: str | None, excerpt_chars: int) -> "Companion":
        """The record an upload makes: its text leaves only the excerpt behind."""
        return cls(
            slug=source.episode_slug,
            format=source.format,
            sequencer=sequencer,
            excerpt=tuple(excerpt(full_text(cues), excerpt_chars)),
            digest=digest(cues),
        )

    def key(self, show: str) -> str:
        """The upload this record stands for."""
        return f"{EPISODES_PREFIX}{show}/{self.slug}.{self.format}"

    def content(self) -> "Companion":
        """The record without its bookkeeping, to tell whether a page must change."""
        return self.model_copy(update={"sequencer": None})


def preferred(one: Companion, other: Companion) -> Companion:
    """Which of two companions of an episode is published."""
    return min(one, other, key=lambda companion: PREFERENCE.index(companion.format))


def digest(cues: tuple[Cue, ...]) -> str:
    """A short fingerprint of what the cues say and when."""
    canonical = json.dumps([[cue.start_ms, cue.end_ms, cue.speaker, cue.text] for cue in cues], ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]
