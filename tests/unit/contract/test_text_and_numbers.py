"""Input that only looks right: trailing newlines past a pattern, bidi controls, invisible text,
decomposed Unicode, repeated keys, numbers past their bounds and durations too short to print."""

import json

import pytest

from podpages.contract.documents import parse_episode, parse_show, transcript_of
from podpages.contract.plain_text import check_characters
from podpages.contract.source_keys import parse_source_key
from podpages.errors import ContractError
from support.catalogs import episode_document, show_document


def fields(error: pytest.ExceptionInfo[ContractError]) -> list[str]:
    return [problem.field for problem in error.value.problems]


@pytest.mark.parametrize("key", ["episodes/s/ep\n.json", "episodes/s\n/ep.json", "shows/api\n.json", "shows/s\n.json"])
def test_a_slug_with_a_trailing_newline_is_not_a_slug(key):
    with pytest.raises(ContractError) as raised:
        parse_source_key(key)

    assert fields(raised) == ["key"]


def test_a_year_slug_with_a_trailing_newline_is_still_a_slug_of_its_own():
    # "2026\n" is no year, so it is not reserved; it is no slug either, so the key is refused
    with pytest.raises(ContractError, match="must match"):
        parse_source_key("episodes/s/2026\n.json")


@pytest.mark.parametrize("url", ["http://m.example.com/a.mp3", "https://m.example.com/a b.mp3", "https:///a.mp3"])
def test_a_url_that_fails_its_check_fails_it_each_time_it_comes(url):
    # URLs checked are remembered: one refused must not be remembered as checked
    document = episode_document(audio={"url": url, "type": "audio/mpeg", "length": 1})
    for _time in range(2):
        with pytest.raises(ContractError) as raised:
            parse_episode(json.dumps(document).encode())
        assert fields(raised) == ["audio.url"]


def test_an_audio_type_with_a_trailing_newline_is_rejected():
    document = episode_document(audio={"url": "https://m.example.com/a.mp3", "type": "audio/mpeg\n", "length": 1})

    with pytest.raises(ContractError) as raised:
        parse_episode(json.dumps(document).encode())

    assert fields(raised) == ["audio.type"]


@pytest.mark.parametrize("control", ["\u202e", "\u202a", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069"])
def test_a_title_carrying_a_bidi_embedding_override_or_isolate_is_rejected(control):
    with pytest.raises(ContractError, match=f"U\\+{ord(control):04X}") as raised:
        parse_episode(json.dumps(episode_document(title=f"Episode 1{control} and more")).encode())

    assert fields(raised) == ["title"]


def test_a_summary_may_carry_bidi_marks_and_right_to_left_text():
    summary = "שלום \u200fעולם\u200e, hello"

    assert parse_episode(json.dumps(episode_document(summary=summary)).encode()).summary == summary


@pytest.mark.parametrize(
    "invisible", ["\u200b", "\u200b\u200c\u2060", "\u3164", "\u0301\u0301", "\u2800", "\u00a0 \t", " \t "]
)
def test_text_with_no_visible_character_is_blank(invisible):
    with pytest.raises(ContractError, match="no visible character") as raised:
        parse_show(json.dumps(show_document(title=invisible, author=invisible)).encode())

    assert fields(raised) == ["title", "author"]


def test_a_text_of_lines_of_white_space_alone_is_blank():
    with pytest.raises(ContractError, match="no visible character") as raised:
        parse_episode(json.dumps(episode_document(summary="\n \t\r\n")).encode())

    assert fields(raised) == ["summary"]


def test_every_text_field_is_read_in_normalization_form_c():
    # Given an episode whose texts, URL and keyword spell é as e and a combining acute accent
    decomposed = "Caf\u0065\u0301"
    document = episode_document(
        title=decomposed, summary=decomposed, transcript=decomposed, keywords=[decomposed], guid=decomposed
    )
    document["audio"]["url"] = f"https://m.example.com/{decomposed}.mp3"

    # When it is read
    episode = parse_episode(json.dumps(document).encode())

    # Then every one holds the composed é
    composed = "Caf\u00e9"
    assert [episode.title, episode.summary, episode.transcript, episode.guid, *episode.keywords] == [composed] * 5
    assert episode.audio.url == f"https://m.example.com/{composed}.mp3"


def test_a_repeated_key_is_rejected_naming_it():
    body = b'{"title": "One", "title": "Two", "audio": {"type": "audio/mpeg", "type": "audio/ogg"}}'

    with pytest.raises(ContractError) as raised:
        parse_episode(body)

    assert fields(raised) == ["title", "audio.type"]


def test_a_key_repeated_in_an_object_of_a_list_is_named_by_its_place():
    body = b'{"title": "One", "chapters": [{"start": "PT0S"}, {"start": "PT1S", "title": "A", "title": "B"}]}'

    with pytest.raises(ContractError) as raised:
        parse_episode(body)

    assert fields(raised) == ["chapters.1.title"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["audio"].update(length=10**13), "audio.length"),
        (lambda d: d["audio"].update(length=int("9" * 4300)), "audio.length"),
        (lambda d: d.update(episode_number=10**6), "episode_number"),
        (lambda d: d.update(season=int("9" * 4300)), "season"),
    ],
)
def test_numbers_past_their_bounds_are_rejected(change, field):
    document = episode_document()
    change(document)

    with pytest.raises(ContractError) as raised:
        parse_episode(json.dumps(document).encode())

    assert fields(raised) == [field]


def test_the_largest_numbers_within_bounds_are_accepted():
    document = episode_document(episode_number=999_999, season=999_999)
    document["audio"]["length"] = 10**13 - 1

    episode = parse_episode(json.dumps(document).encode())

    assert (episode.audio.length, episode.episode_number, episode.season) == (10**13 - 1, 999_999, 999_999)


@pytest.mark.parametrize("duration", ["PT0.5S", "PT0.999S", "PT0S"])
def test_a_duration_under_one_second_is_rejected(duration):
    with pytest.raises(ContractError, match="at least 1 second") as raised:
        parse_episode(json.dumps(episode_document(duration=duration)).encode())

    assert fields(raised) == ["duration"]


@pytest.mark.parametrize("depth", [900, 5000, 100_000])
def test_a_document_nested_past_any_contract_is_a_contract_error_not_a_crash(depth):
    with pytest.raises(ContractError) as raised:
        parse_episode(b'{"title": ' + b"[" * depth + b"]" * depth + b"}")

    assert fields(raised) == ["document"]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_title_holding_a_unicode_line_or_paragraph_separator_is_not_one_line(separator):
    with pytest.raises(ContractError, match="single line") as raised:
        parse_episode(json.dumps(episode_document(title=f"One{separator}Two")).encode())

    assert fields(raised) == ["title"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bell\x07", "control character U+0007 at position 4"),
        ("not a character \ufdd0", "noncharacter U+FDD0 at position 16"),
        ("not a character \U0001fffe", "noncharacter U+1FFFE at position 16"),
        ("\U0010ffff at the end of the last plane", "noncharacter U+10FFFF at position 0"),
        # Text past the BMP is searched again, with the full list, from its first character past it.
        ("an emoji \U0001f3a7 and a bell\x07", "control character U+0007 at position 21"),
        ("an emoji \U0001f3a7 then \ufffe", "noncharacter U+FFFE at position 16"),
        ("an emoji \U0001f3a7 then \U0002ffff", "noncharacter U+2FFFF at position 16"),
        ("a bell\x07 then an emoji \U0001f3a7", "control character U+0007 at position 6"),
    ],
)
def test_a_forbidden_character_is_named_with_its_position_whatever_plane_the_text_reaches(text, message):
    with pytest.raises(ContractError, match=message.replace("+", r"\+")) as raised:
        parse_episode(json.dumps(episode_document(summary=text)).encode())

    assert fields(raised) == ["summary"]


# Every code point the contract forbids: C0 but tab, newline and carriage return; DEL and C1; the
# surrogates; the noncharacters of every plane.
FORBIDDEN = [
    *(chr(code) for code in range(0x20) if chr(code) not in "\t\n\r"),
    *(chr(code) for code in range(0x7F, 0xA0)),
    *(chr(code) for code in range(0xD800, 0xE000)),
    *(chr(code) for code in range(0xFDD0, 0xFDF0)),
    *(chr(plane + last) for plane in range(0, 0x110000, 0x10000) for last in (0xFFFE, 0xFFFF)),
]


@pytest.mark.parametrize("around", ["plain {} text", "lines\n{}\nof text", "café\n\n{} ☕"])
def test_every_forbidden_character_is_caught_in_plain_text_of_one_line_or_many(around):
    # Most text takes a quicker test than the search that names the character: none may slip past it.
    for character in FORBIDDEN:
        with pytest.raises(ValueError, match=f"U\\+{ord(character):04X}"):
            check_characters(around.format(character))


@pytest.mark.parametrize(
    "text", ["plain ASCII", "ASCII\tin\r\nlines", "café, naïve — “quoted”", "headphones \U0001f3a7 and \U00010000"]
)
def test_text_with_no_forbidden_character_passes_whatever_plane_it_reaches(text):
    assert parse_episode(json.dumps(episode_document(summary=text)).encode()).summary == text


@pytest.mark.parametrize(
    "body",
    [
        json.dumps(episode_document(transcript="Cafe\u0301 and cafe\u0301.\n\nA second paragraph.")).encode(),
        json.dumps(episode_document(transcript="\u00e9 \U0001f3a7 <b>&amp;</b> \\u0041"), ensure_ascii=True).encode(),
        json.dumps(episode_document(transcript="plain"), ensure_ascii=False, indent=2).encode(),
        json.dumps(episode_document()).encode(),  # none at all
    ],
)
def test_a_transcript_read_again_is_the_one_the_model_keeps(body):
    # A render reads each transcript again from its file when it writes it: NFC, escapes decoded, as parsed
    assert transcript_of(body) == parse_episode(body).transcript
