"""The transcript excerpt and the meta description."""

import pytest

from podpages.excerpt import ELLIPSIS, cut_at_word, excerpt, meta_description, paragraphs


def test_paragraphs_split_on_blank_lines_and_fold_white_space():
    assert paragraphs("one\ntwo  three\n\n\n  four \n \nfive") == ["one two three", "four", "five"]


def test_a_transcript_that_fits_whole_gets_no_ellipsis():
    assert excerpt("First part.\n\nSecond part.", 100) == ["First part.", "Second part."]


def test_whole_paragraphs_then_the_next_cut_at_a_word():
    transcript = "aaaa bbbb\n\ncccc dddd eeee ffff"

    # 9 characters used by the first paragraph leave 10: "cccc dddd" and the ellipsis would be 10.
    assert excerpt(transcript, 19) == ["aaaa bbbb", f"cccc dddd{ELLIPSIS}"]
    assert excerpt(transcript, 18) == ["aaaa bbbb", f"cccc{ELLIPSIS}"]


def test_a_first_paragraph_longer_than_the_budget_is_cut():
    assert excerpt("one two three four", 10) == [f"one two{ELLIPSIS}"]


def test_no_word_fits_means_no_cut_paragraph():
    assert excerpt("short\n\nextraordinarily", 10) == ["short"]


def test_an_excerpt_never_exceeds_its_budget():
    transcript = "\n\n".join(
        " ".join(f"w{n}" * (1 + n % 3) for n in range(start, start + 40)) for start in range(0, 400, 40)
    )
    for limit in range(0, 2000, 37):
        assert sum(map(len, excerpt(transcript, limit))) <= limit


def test_a_cut_never_ends_in_a_dangling_comma():
    assert cut_at_word("alpha, beta gamma", 9) == f"alpha{ELLIPSIS}"


def test_a_short_summary_is_its_own_description():
    assert meta_description("A short  summary,\nall on one line.") == "A short summary, all on one line."


@pytest.mark.parametrize("length", [156, 200, 4000])
def test_a_long_summary_is_cut_at_a_word_to_155_characters(length):
    summary = ("word " * 1000)[:length]

    description = meta_description(summary)

    assert len(description) <= 155
    assert description.endswith(f"word{ELLIPSIS}")
