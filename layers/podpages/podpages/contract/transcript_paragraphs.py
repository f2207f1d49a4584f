"""A companion transcript read as paragraphs, the way a person reads a transcript: one to each
speaker's turn, or, where no cue names a speaker, one to about a minute of cues. The transcript page,
`transcript.txt` and the excerpt on the episode page all read these same paragraphs."""

from dataclasses import dataclass

from podpages.contract.companion_transcripts import Cue

PARAGRAPH_MS = 60_000  # without speakers, a paragraph closes at the first cue a minute past its start


@dataclass(frozen=True)
class Paragraph:
    start_ms: int
    text: str
    speaker: str | None = None


def paragraphs(cues: tuple[Cue, ...]) -> list[Paragraph]:
    """Consecutive cues joined. A cue without a voice tag continues the speaker before it."""
    by_speaker = any(cue.speaker for cue in cues)
    groups: list[list[Cue]] = []
    speaker: str | None = None
    for cue in cues:
        if by_speaker:
            starts = not groups or (cue.speaker is not None and cue.speaker != speaker)
        else:
            starts = not groups or cue.start_ms - groups[-1][0].start_ms >= PARAGRAPH_MS
        if starts:
            groups.append([])
            speaker = cue.speaker or speaker
        groups[-1].append(cue)
    return [_paragraph(group) for group in groups]


def _paragraph(cues: list[Cue]) -> Paragraph:
    speaker = next((cue.speaker for cue in cues if cue.speaker), None)
    return Paragraph(cues[0].start_ms, " ".join(cue.text for cue in cues), speaker)


def full_text(cues: tuple[Cue, ...]) -> str:
    """The transcript as plain text: its paragraphs, each after its speaker's name, between blank lines."""
    return "\n\n".join(
        f"{paragraph.speaker}: {paragraph.text}" if paragraph.speaker else paragraph.text
        for paragraph in paragraphs(cues)
    )
