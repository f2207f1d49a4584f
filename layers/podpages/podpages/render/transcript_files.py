"""A companion transcript written out again in each format `podcast:transcript` can link: WebVTT,
SubRip, the podcast namespace's JSON and plain text, all from the same cues.

The files are written from the cues, not copied from the upload, so that each is valid whatever the
upload's styling, settings or notes were, and the four always say the same words.
"""

import html
import json
from typing import Any

from podpages import site_paths
from podpages.contract.companion_transcripts import Cue
from podpages.contract.transcript_paragraphs import full_text
from podpages.durations import json_seconds, timestamp
from podpages.render import site_objects
from podpages.render.site_objects import SiteObject

JSON_TRANSCRIPT_VERSION = "1.0.0"


def transcript_files(show: str, slug: str, cues: tuple[Cue, ...]) -> list[SiteObject]:
    """`transcript.vtt`, `.srt`, `.json` and `.txt`, in that order."""
    return [
        site_objects.webvtt(site_paths.transcript_file(show, slug, "vtt"), webvtt_text(cues)),
        site_objects.subrip(site_paths.transcript_file(show, slug, "srt"), subrip_text(cues)),
        site_objects.json_transcript(site_paths.transcript_file(show, slug, "json"), json_text(cues)),
        site_objects.plain_text(site_paths.transcript_file(show, slug, "txt"), full_text(cues)),
    ]


def webvtt_text(cues: tuple[Cue, ...]) -> str:
    """WebVTT with one voice tag per cue that has a speaker. Escaping `>` also keeps `-->`, which
    would end a cue's text, out of it."""
    blocks = ["WEBVTT"]
    for cue in cues:
        voice = f"<v {_escaped(cue.speaker)}>" if cue.speaker else ""
        blocks.append(f"{timestamp(cue.start_ms, '.')} --> {timestamp(cue.end_ms, '.')}\n{voice}{_escaped(cue.text)}")
    return "\n\n".join(blocks) + "\n"


def subrip_text(cues: tuple[Cue, ...]) -> str:
    """SubRip, numbered from 1, with the speaker's name and a colon before the words, as the podcast
    namespace's transcripts.md asks. Players read SubRip's text as HTML-like markup, so `&`, `<` and
    `>` are escaped here too."""
    blocks = []
    for number, cue in enumerate(cues, start=1):
        text = f"{cue.speaker}: {cue.text}" if cue.speaker else cue.text
        blocks.append(f"{number}\n{timestamp(cue.start_ms, ',')} --> {timestamp(cue.end_ms, ',')}\n{_escaped(text)}")
    return "\n\n".join(blocks) + "\n"


def json_text(cues: tuple[Cue, ...]) -> str:
    """The podcast namespace's JSON transcript, version 1.0.0: one segment to a cue."""
    document = {"version": JSON_TRANSCRIPT_VERSION, "segments": [_segment(cue) for cue in cues]}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _segment(cue: Cue) -> dict[str, Any]:
    """The format's names, times in seconds; no `speaker` where the cue names none."""
    segment: dict[str, Any] = {"speaker": cue.speaker} if cue.speaker else {}
    return segment | {
        "startTime": json_seconds(cue.start_ms / 1000),
        "endTime": json_seconds(cue.end_ms / 1000),
        "body": cue.text,
    }


def _escaped(text: str) -> str:
    """`&`, `<` and `>` as character references, which cue text requires; quotes mean nothing in it."""
    return html.escape(text, quote=False)
