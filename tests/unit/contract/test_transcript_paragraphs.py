"""A companion transcript read as paragraphs: by speaker turn, or by about a minute of cues."""

from podpages.contract.companion_transcripts import Cue
from podpages.contract.transcript_paragraphs import Paragraph, full_text, paragraphs


def test_a_paragraph_is_a_speakers_turn_and_unvoiced_cues_continue_it():
    cues = (
        Cue(0, 1000, "Hello.", "Ada"),
        Cue(1000, 2000, "Still me.", None),
        Cue(2000, 3000, "And me.", "Ada"),
        Cue(3000, 4000, "My turn.", "Priya"),
        Cue(900_000, 901_000, "Much later, still Priya.", None),
    )

    assert paragraphs(cues) == [
        Paragraph(0, "Hello. Still me. And me.", "Ada"),
        Paragraph(3000, "My turn. Much later, still Priya.", "Priya"),
    ]


def test_without_speakers_a_paragraph_closes_at_the_first_cue_a_minute_past_its_start():
    cues = tuple(Cue(seconds * 1000, seconds * 1000 + 5000, f"At {seconds}.") for seconds in range(0, 150, 15))

    assert [(paragraph.start_ms, paragraph.text.split()[:2]) for paragraph in paragraphs(cues)] == [
        (0, ["At", "0."]),
        (60_000, ["At", "60."]),
        (120_000, ["At", "120."]),
    ]


def test_the_full_text_names_each_turns_speaker_between_blank_lines():
    cues = (Cue(0, 1000, "Hi.", "Ada"), Cue(1000, 2000, "Hello.", "Priya"))

    assert full_text(cues) == "Ada: Hi.\n\nPriya: Hello."
