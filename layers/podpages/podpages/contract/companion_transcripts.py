"""A transcript uploaded as a file of its own beside its episode's JSON: WebVTT or SubRip, as
transcription tools write them, read into cues with webvtt-py.

A cue keeps what every output of it needs: when it starts and ends, to the millisecond; who speaks,
from a WebVTT voice tag (`<v Ada Okafor>`); and its words as plain text, without styling tags or
character references. A file that does not parse is refused with the line it fails on, so that a
publisher can open it there. The library decides what parses; this module only finds where.

A WebVTT file is read by the library whole, once, where it splits the file into the same blocks as
`_blocks` does and reads a caption from each of them: then each caption is the one that the block
read alone would give. Otherwise, and for SubRip, whose reader joins blocks that start no cue to
the cue before them, each block is read alone, which also tells where one fails. Whole, an hour of
1,000 cues took 24 ms where block by block it took 35.
"""

import html
import io
from dataclasses import dataclass

import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError
from webvtt.models import Caption

from podpages.contract.plain_text import check_characters, nfc
from podpages.contract.source_keys import MAX_COMPANION_BYTES, CompanionFormat
from podpages.errors import ContractError, Problem

DOCUMENT = "document"  # the field name for problems with the whole file
FORMAT_NAMES = {"vtt": "WebVTT", "srt": "SubRip"}
_BOM = "\ufeff"


@dataclass(frozen=True)
class Cue:
    """A stretch of the audio and the words said in it."""

    start_ms: int
    end_ms: int
    text: str
    speaker: str | None = None


@dataclass(frozen=True)
class _Block:
    """Lines between blank lines, with the number of the first, counted from 1 as editors count."""

    line: int
    lines: list[str]

    @property
    def is_cue(self) -> bool:
        return any("-->" in line for line in self.lines[:2])


def parse_companion(body: bytes, format: CompanionFormat) -> tuple[Cue, ...]:
    """The cues of a WebVTT (`vtt`) or SubRip (`srt`) file, in order, or a ContractError naming each
    line that fails. A byte-order mark and CRLF line ends are read as what they are."""
    blocks = _blocks(_text(body))
    problems: list[Problem] = []
    if format == "vtt":
        problems += _vtt_header(blocks)
    cue_blocks = [block for block in blocks if block.is_cue]
    read_whole = _vtt_captions(blocks, len(cue_blocks)) if format == "vtt" and not problems else None
    cues: list[Cue] = []
    for number, block in enumerate(cue_blocks, start=1):
        try:
            cue = _cue(read_whole[number - 1] if read_whole else _caption(block, format))
        except ValueError as error:
            problems.append(Problem(f"line {block.line}", f"cue {number}: {error}"))
            continue
        if cues and cue.start_ms < cues[-1].start_ms:
            problems.append(Problem(f"line {block.line}", f"cue {number}: starts before cue {number - 1} does"))
        if cue.text:
            cues.append(cue)
    if problems:
        raise ContractError(problems)
    if not cues:
        raise ContractError([Problem(DOCUMENT, "holds no cue with words in it")])
    return tuple(cues)


def _text(body: bytes) -> str:
    if len(body) > MAX_COMPANION_BYTES:
        raise ContractError([Problem(DOCUMENT, f"is larger than {MAX_COMPANION_BYTES} bytes (5 MiB)")])
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = Problem(DOCUMENT, f"is not UTF-8: byte 0x{body[error.start]:02x} at offset {error.start}")
        raise ContractError([problem]) from None
    return text.removeprefix(_BOM).replace("\r\n", "\n").replace("\r", "\n")


def _blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    current: list[str] = []
    for number, line in enumerate([*text.split("\n"), ""], start=1):
        if line.strip():
            current.append(line)
        elif current:
            blocks.append(_Block(number - len(current), current))
            current = []
    return blocks


def _vtt_header(blocks: list[_Block]) -> list[Problem]:
    header = "\n".join(blocks[0].lines) if blocks else ""
    try:
        webvtt.from_buffer(io.StringIO(header + "\n"), format="vtt", strict=True)
    except (MalformedFileError, MalformedCaptionError):
        return [Problem("line 1", "must be the line WEBVTT, which begins every WebVTT file")]
    return []


def _vtt_captions(blocks: list[_Block], cues: int) -> list[Caption] | None:
    """The captions of a WebVTT file read whole, one to each of its `cues` cue blocks, or None.

    The library reads the blocks as `_blocks` made them, each after an empty line, and reads each
    block as it would alone: in a block that is not the header, a line holding `-->` past the
    block's own timings line is an error. So no block gives two captions, and as many captions as
    cue blocks are one to each of them, in order. (A cue block may give none, as a `NOTE` whose
    second line holds `-->` does.) A header holding `-->`, which the library would split, is read
    block by block."""
    if any("-->" in line for line in blocks[0].lines):
        return None
    text = "\n\n".join("\n".join(block.lines) for block in blocks) + "\n"
    try:
        captions: list[Caption] = webvtt.from_buffer(io.StringIO(text), format="vtt", strict=True).captions
    except (MalformedFileError, MalformedCaptionError):
        return None
    return captions if len(captions) == cues else None


def _caption(block: _Block, format: CompanionFormat) -> Caption:
    """The one caption of `block`, as webvtt-py reads it alone."""
    source = "\n".join(block.lines) + "\n"
    try:
        if format == "vtt":
            captions = webvtt.from_buffer(io.StringIO("WEBVTT\n\n" + source), format="vtt", strict=True).captions
        else:
            captions = webvtt.from_buffer(io.StringIO(source), format="srt").captions
    except (MalformedFileError, MalformedCaptionError) as error:
        raise ValueError(_unparsed(format, str(error))) from None
    if len(captions) != 1:
        raise ValueError(_unparsed(format, ""))
    caption: Caption = captions[0]
    return caption


def _cue(caption: Caption) -> Cue:
    """The cue a caption gives, with its text and its speaker's name as plain text."""
    start, end = caption.start_time.in_milliseconds(), caption.end_time.in_milliseconds()
    if end < start:
        raise ValueError(f"ends at {caption.end}, before it starts at {caption.start}")
    text = " ".join(nfc(html.unescape(line)).strip() for line in caption.text.split("\n") if line.strip())
    voice = caption.voice
    speaker = nfc(html.unescape(voice)).strip() if voice else None
    check_characters(text)
    check_characters(speaker or "")
    return Cue(start, end, text, speaker or None)


def _unparsed(format: CompanionFormat, reason: str) -> str:
    """Why a block is no cue: the library's reason when it names a timestamp, else where to look."""
    if not reason.startswith("Invalid timestamp"):
        reason = "its timings line, its settings or the blank line after it"
    return f"is not a {FORMAT_NAMES[format]} cue: {reason}"
