"""Companion transcripts, WebVTT and SubRip, in the shapes transcription tools write them; and the
files that do not parse, refused with the line to look at."""

import pytest
import webvtt

from podpages.contract import companion_transcripts
from podpages.contract.companion_transcripts import MAX_COMPANION_BYTES, Cue, parse_companion
from podpages.errors import ContractError

REAL_WORLD_VTT = (
    "\ufeffWEBVTT - Episode 12\r\n"
    "Kind: captions\r\n"
    "\r\n"
    "NOTE Exported by a transcription tool;\r\n"
    "speakers checked by hand.\r\n"
    "\r\n"
    "STYLE\r\n"
    "::cue(v[voice='Ada']) { color: teal }\r\n"
    "\r\n"
    "intro-1\r\n"
    "00:00:00.000 --> 00:00:04.250 align:start position:10% line:0\r\n"
    "<v Ada Okafor>Welcome to <b>Release Radio</b> &amp; thanks for listening.</v>\r\n"
    "\r\n"
    "00:04.250 --> 01:02:03.004\r\n"
    "<v.loud Priya Natarajan>An hour-long cue,\r\n"
    "over <i>two</i> lines.\r\n"
    "\r\n"
    "00:04.250 --> 00:00:05.000\r\n"  # starting with the cue before it: start times may repeat, not fall
)


def problems(body: str | bytes, format: str = "vtt") -> list[str]:
    with pytest.raises(ContractError) as raised:
        parse_companion(body.encode() if isinstance(body, str) else body, format)
    return [str(problem) for problem in raised.value.problems]


def test_a_real_world_webvtt_file_gives_its_cues_speakers_and_words():
    cues = parse_companion((REAL_WORLD_VTT + "[music]\r\n").encode(), "vtt")

    assert cues == (
        Cue(0, 4250, "Welcome to Release Radio & thanks for listening.", "Ada Okafor"),
        Cue(4250, 3723004, "An hour-long cue, over two lines.", "Priya Natarajan"),
        Cue(4250, 5000, "[music]"),
    )


def test_a_subrip_file_gives_its_cues_without_their_styling():
    srt = (
        "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> there\n\n"
        '2\n00:00:03,000 --> 00:00:04,000\n<font color="red">World</font>\n'
    )

    assert parse_companion(srt.encode(), "srt") == (Cue(1000, 2500, "Hello there"), Cue(3000, 4000, "World"))


def test_text_is_read_in_one_normal_form():
    decomposed = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Jose\u0301>Cafe\u0301\n"

    assert parse_companion(decomposed.encode(), "vtt") == (Cue(1000, 2000, "Café", "José"),)


@pytest.mark.parametrize(
    ("body", "format", "expected"),
    [
        (
            "WEBVTT\n\n00:00:01.000 --> 00:61:04.000\nHello\n",
            "vtt",
            "line 3: cue 1: is not a WebVTT cue: Invalid timestamp",
        ),
        (
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\n00:00:03.000 --> 00:00:04.000\nB\n",
            "vtt",
            "line 3: cue 1: is not a WebVTT cue",
        ),
        (
            "WEBVTT\n\nNOTE\n\n00:00:05.000 --> 00:00:04.000\nBack\n",
            "vtt",
            "line 5: cue 1: ends at 00:00:04.000, before it starts",
        ),
        (
            "WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nA\n\n00:00:01.000 --> 00:00:02.000\nB\n",
            "vtt",
            "line 6: cue 2: starts before cue 1 does",
        ),
        ("Transcript\n\n00:00:01.000 --> 00:00:02.000\nHi\n", "vtt", "line 1: must be the line WEBVTT"),
        (
            "1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:03,000 --> 00:00:0x,000\nYo\n",
            "srt",
            "line 5: cue 2: is not a SubRip cue",
        ),
        (
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBell \x07\n",
            "vtt",
            "line 3: cue 1: contains the control character U+0007",
        ),
        ("WEBVTT\n\nNOTE nothing said\n", "vtt", "document: holds no cue with words in it"),
        (  # read whole, the NOTE is a comment and the file one cue: block by block, it is a cue that fails
            "WEBVTT\n\nNOTE\nsee 1 --> 2\n\n00:00:03.000 --> 00:00:04.000\nHi\n",
            "vtt",
            "line 3: cue 1: is not a WebVTT cue",
        ),
        (  # likewise, beside a cue that the library, reading whole, splits from the header
            "WEBVTT\nKind: captions\n00:00:01.000 --> 00:00:02.000\nHidden\n\n"
            "NOTE\nsee 1 --> 2\n\n00:00:03.000 --> 00:00:04.000\nHi\n",
            "vtt",
            "line 6: cue 1: is not a WebVTT cue",
        ),
        (b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\xff\n", "vtt", "document: is not UTF-8: byte 0xff at offset 38"),
    ],
)
def test_a_file_that_does_not_parse_is_refused_with_the_line_to_look_at(body, format, expected):
    found = problems(body, format)

    assert len(found) == 1 and found[0].startswith(expected), found


def test_every_failing_cue_is_named_not_only_the_first():
    body = (
        "WEBVTT\n\n00:00:0x.000 --> 00:00:02.000\nA\n\n"
        "00:00:03.000 --> 00:00:04.000\nB\n\n00:00:09.000 --> 00:00:05.000\nC\n"
    )

    assert [problem.split(":")[0] for problem in problems(body)] == ["line 3", "line 9"]


def test_a_file_over_five_mebibytes_is_refused_before_it_is_read():
    body = b"WEBVTT\n\n" + b"00:00:01.000 --> 00:00:02.000\nwords\n\n" * (MAX_COMPANION_BYTES // 36 + 1)

    assert problems(body) == [f"document: is larger than {MAX_COMPANION_BYTES} bytes (5 MiB)"]


LONG_VTT = "WEBVTT\n\n" + "".join(
    f"cue-{n}\n00:{n // 60:02d}:{n % 60:02d}.000 --> 00:{n // 60:02d}:{n % 60:02d}.900 line:{n % 90}%\n"
    f"<v.loud Speaker {n % 3}>Words &amp; <i>more</i> words, {n}.\n\n"
    for n in range(120)
)
READ_ALIKE = [
    (REAL_WORLD_VTT + "[music]\r\n").encode(),
    LONG_VTT.encode(),
    b"WEBVTT\n00:00:01.000 --> 00:00:02.000\nA header that runs on into a cue\n\n00:00:03.000 --> 00:00:04.000\nB\n",
    b"WEBVTT\n\nREGION\nid:fred width:40%\n\n00:00:01.000 --> 00:00:02.000 region:fred\nA\n   \nB\n\nNOTE after\n",
    b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\t \n00:00:01.500 --> 00:00:03.000\n<v Ada>Both\n",
]


@pytest.mark.parametrize("body", READ_ALIKE)
def test_a_webvtt_file_read_whole_gives_the_cues_that_its_blocks_read_one_by_one_give(body, monkeypatch):
    whole = parse_companion(body, "vtt")
    monkeypatch.setattr(companion_transcripts, "_vtt_captions", lambda _blocks, _cues: None)

    assert parse_companion(body, "vtt") == whole


def test_a_webvtt_file_that_parses_is_read_whole_once_after_its_header(monkeypatch):
    read = []
    from_buffer = webvtt.from_buffer
    monkeypatch.setattr(webvtt, "from_buffer", lambda *args, **kwargs: read.append(1) or from_buffer(*args, **kwargs))

    cues = parse_companion(LONG_VTT.encode(), "vtt")

    assert len(cues) == 120 and cues[7] == Cue(7000, 7900, "Words & more words, 7.", "Speaker 1")
    assert len(read) == 2
