"""A companion transcript's four files: WebVTT and SubRip that read back into the same cues, the
podcast namespace's JSON transcript, and plain text; each with its media type, and each keeping
hostile text as text."""

import json

import pytest

from podpages.contract.companion_transcripts import Cue, parse_companion
from podpages.contract.transcript_paragraphs import full_text
from podpages.render import site_objects
from podpages.render.transcript_files import json_text, subrip_text, transcript_files, webvtt_text

HOSTILE = "Close </v> then --> and <script>alert(1)</script> &amp; A&B <i>x</i>"
CUES = (
    Cue(0, 2_500, "Welcome to the show.", "Ada Okafor"),
    Cue(2_500, 4_000, "Thanks, Ada."),
    Cue(4_000, 65_250, HOSTILE, "Priya <b>&</b> Co"),
    Cue(3_723_004, 3_725_000, "An hour in.", "Tom"),
)


@pytest.fixture(scope="module")
def files():
    return {obj.key.rsplit(".", 1)[1]: obj for obj in transcript_files("s", "ep", CUES)}


def test_four_files_beside_the_page_each_with_its_media_type(files):
    assert [(obj.key, obj.content_type) for obj in files.values()] == [
        ("s/ep/transcript.vtt", "text/vtt; charset=utf-8"),
        ("s/ep/transcript.srt", "application/x-subrip; charset=utf-8"),
        ("s/ep/transcript.json", "application/json"),
        ("s/ep/transcript.txt", "text/plain; charset=utf-8"),
    ]
    assert {obj.cache_control for obj in files.values()} == {site_objects.PAGE_CACHE}


def test_webvtt_is_written_cue_by_cue_with_voice_tags():
    cues = (Cue(0, 2_500, "Welcome.", "Ada Okafor"), Cue(2_500, 3_723_004, "No voice & no tag."))

    assert webvtt_text(cues) == (
        "WEBVTT\n"
        "\n"
        "00:00:00.000 --> 00:00:02.500\n"
        "<v Ada Okafor>Welcome.\n"
        "\n"
        "00:00:02.500 --> 01:02:03.004\n"
        "No voice &amp; no tag.\n"
    )


def test_webvtt_reads_back_into_the_same_cues(files):
    assert parse_companion(files["vtt"].body, "vtt") == CUES


def test_webvtt_escapes_markup_in_text_and_voice(files):
    body = files["vtt"].body.decode()

    assert "<v Priya &lt;b&gt;&amp;&lt;/b&gt; Co>" in body
    assert "&lt;/v&gt; then --&gt; and &lt;script&gt;" in body
    assert "&amp;amp;" in body  # the words "&amp;" stay words, not an ampersand
    assert len([line for line in body.splitlines() if "-->" in line]) == len(CUES)  # timings lines only


def test_subrip_is_numbered_with_the_speaker_before_the_words():
    cues = (Cue(0, 1_000, "Welcome.", "Ada Okafor"), Cue(1_000, 2_500, "Still Ada."))

    assert subrip_text(cues) == (
        "1\n00:00:00,000 --> 00:00:01,000\nAda Okafor: Welcome.\n\n2\n00:00:01,000 --> 00:00:02,500\nStill Ada.\n"
    )


def test_subrip_reads_back_with_the_speaker_as_part_of_the_words(files):
    # SubRip has no voice tags: a reader sees the name as the start of the text, as the namespace intends.
    expected = tuple(
        Cue(cue.start_ms, cue.end_ms, f"{cue.speaker}: {cue.text}" if cue.speaker else cue.text) for cue in CUES
    )

    assert parse_companion(files["srt"].body, "srt") == expected


def test_subrip_keeps_markup_out_of_the_words(files):
    body = files["srt"].body.decode()

    assert "<script>" not in body and "</v>" not in body
    assert "Priya &lt;b&gt;&amp;&lt;/b&gt; Co: Close &lt;/v&gt; then --&gt; and" in body


def test_json_is_the_podcast_namespace_transcript_format(files):
    document = json.loads(files["json"].body)

    assert document == {
        "version": "1.0.0",
        "segments": [
            {"speaker": "Ada Okafor", "startTime": 0, "endTime": 2.5, "body": "Welcome to the show."},
            {"startTime": 2.5, "endTime": 4, "body": "Thanks, Ada."},
            {"speaker": "Priya <b>&</b> Co", "startTime": 4, "endTime": 65.25, "body": HOSTILE},
            {"speaker": "Tom", "startTime": 3723.004, "endTime": 3725, "body": "An hour in."},
        ],
    }


def test_json_writes_whole_seconds_as_integers():
    text = json_text((Cue(61_000, 62_000, "x"),))

    assert '"startTime": 61,' in text and '"endTime": 62,' in text


def test_plain_text_is_the_paragraphs_as_the_transcript_file_always_was(files):
    assert files["txt"].body.decode() == full_text(CUES)
    assert files["txt"].body.decode().startswith("Ada Okafor: Welcome to the show. Thanks, Ada.\n\nPriya <b>&</b> Co: ")
