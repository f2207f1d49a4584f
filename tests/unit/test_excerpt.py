"""The transcript excerpt and the meta description."""

import pytest

from podpages.excerpt import ELLIPSIS, cut_at_word, excerpt, fold, meta_description, paragraphs


def test_paragraphs_split_on_blank_lines_and_fold_white_space():
    assert paragraphs("one\ntwo  three\n\n\n  four \n \nfive") == ["one two three", "four", "five"]


@pytest.mark.parametrize(
    "text",
    [
        "folded already, one space to a gap",
        "two  spaces",
        " leading",
        "trailing ",
        "a\ttab",
        "a\nline",
        "a\u00a0no-break space",
        "an\u3000ideographic space",
        "a\u2028line separator",
        "a next\u0085line",
        "\u2003",
        "",
    ],
)
def test_folding_makes_each_run_of_white_space_one_space_and_trims_the_ends(text):
    assert fold(text) == " ".join(text.split())


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


CHINESE = "这是一个关于内核开发的播客节目。"
JAPANESE = "ポッドキャストの文字起こしです。"
ACUTE_E = "e\u0301"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
FLAG = "\U0001f1eb\U0001f1f7"
CLUSTERS = {
    "e and a combining acute": ACUTE_E,
    "a family joined by ZWJs": FAMILY,
    "a flag of two regional indicators": FLAG,
    "a thumb with a skin tone": "\U0001f44d\U0001f3fd",
    "a heart with a variation selector": "\u2764\ufe0f",
    "a subdivision flag of tags": "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
}


@pytest.mark.parametrize(
    ("summary", "description"),
    [
        (CHINESE * 20, f"{(CHINESE * 10)[:154]}{ELLIPSIS}"),
        ("a" * 300, f"{'a' * 154}{ELLIPSIS}"),
        # The 154 characters before the ellipsis would end between a letter and its accent,
        ("x" + ACUTE_E * 100, f"x{ACUTE_E * 76}{ELLIPSIS}"),
        # inside a family after the first ZWJ,
        ("a" * 152 + FAMILY * 3, f"{'a' * 152}{ELLIPSIS}"),
        # and between the two letters of a flag.
        ("x" + FLAG * 100, f"x{FLAG * 76}{ELLIPSIS}"),
    ],
    ids=["chinese", "a 300-letter word", "an accent at the cut", "a family at the cut", "a flag at the cut"],
)
def test_a_summary_without_spaces_is_cut_between_graphemes_to_155_characters(summary, description):
    assert meta_description(summary) == description


@pytest.mark.parametrize(
    ("transcript", "kept"),
    [
        (CHINESE * 3, [f"{CHINESE}这是一{ELLIPSIS}"]),
        (JAPANESE * 10, [f"{JAPANESE}ポッド{ELLIPSIS}"]),
        ("x" * 300, [f"{'x' * 19}{ELLIPSIS}"]),
    ],
    ids=["chinese", "japanese", "a 300-letter word"],
)
def test_a_transcript_without_spaces_is_cut_between_graphemes(transcript, kept):
    assert excerpt(transcript, 20) == kept


@pytest.mark.parametrize("cluster", CLUSTERS.values(), ids=CLUSTERS.keys())
def test_a_cut_between_graphemes_keeps_every_cluster_whole(cluster):
    # Given a transcript of one cluster over and over, with no space to cut at
    transcript = cluster * 100
    budgets = range(len(cluster) + 1, 200)

    # When it is cut to every budget with room for one cluster and the ellipsis
    excerpts = [excerpt(transcript, limit) for limit in budgets]

    # Then each keeps as many whole clusters as fit beside the ellipsis
    assert excerpts == [[f"{cluster * ((limit - len(ELLIPSIS)) // len(cluster))}{ELLIPSIS}"] for limit in budgets]


def test_a_cut_between_graphemes_never_exceeds_its_budget():
    transcript = "".join(CLUSTERS.values()) * 20 + CHINESE

    assert all(sum(map(len, excerpt(transcript, limit))) <= limit for limit in range(0, 200))
