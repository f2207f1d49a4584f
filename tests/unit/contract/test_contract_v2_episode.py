"""Contract v2, the episode: notes, its type, chapters, soundbites, alternate enclosures and block.

Every field is accepted at its limits, and every hostile value is rejected naming its dotted path;
chapters and soundbites are also held to the episode's duration (`PT4M5S`, 245 s, unless a test says)."""

import copy
import json

import pytest

from podpages.contract.documents import Episode, parse_episode
from podpages.errors import ContractError
from support.catalogs import episode_document

ENCLOSURE = {"url": "https://media.example.com/a.ogg", "type": "audio/ogg", "length": 1000}
HOSTILE_URLS = [
    "http://media.example.com/a",
    "javascript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "https://",
    "https://media.example.com/a b",
    "https://media.example.com/\x07",
]


def parsed(**fields) -> Episode:
    return parse_episode(json.dumps(episode_document(**fields)).encode())


def problems_of(document: dict) -> dict[str, str]:
    with pytest.raises(ContractError) as raised:
        parse_episode(json.dumps(document).encode())
    return {problem.field: problem.message for problem in raised.value.problems}


def chapters(*starts: float) -> list[dict]:
    return [{"start": start, "title": f"Chapter {index}"} for index, start in enumerate(starts)]


# --- accepted at the limits ----------------------------------------------------------------------


def test_an_episode_without_v2_fields_takes_their_defaults():
    # Given a v1 episode
    # When it is read
    episode = parsed()

    # Then every v2 field holds its default
    assert (
        episode.notes,
        episode.episode_type,
        episode.chapters,
        episode.persons,
        episode.soundbites,
        episode.location,
        episode.license,
        episode.alternate_enclosures,
        episode.block,
    ) == (None, "full", None, None, None, None, None, None, False)


def test_notes_of_20000_characters_over_many_lines_are_accepted():
    # Given CommonMark notes of exactly 20,000 characters, over several lines
    start = "# Notes\n\n* one\n* [two](https://a.example)\n\n"
    notes = start + "x" * (20_000 - len(start))

    # When the episode is read
    episode = parsed(notes=notes)

    # Then they are kept as written
    assert episode.notes == notes


@pytest.mark.parametrize("episode_type", ["full", "trailer", "bonus"])
def test_each_episode_type_is_accepted(episode_type):
    assert parsed(episode_type=episode_type).episode_type == episode_type


def test_a_chapter_with_every_field_at_its_limits_is_accepted():
    # Given one chapter at the very start, with a 200-character title, links and toc off,
    # and one as late as the audio allows
    first = {
        "start": 0,
        "title": "t" * 200,
        "url": "https://example.com/c",
        "image": "https://example.com/c.jpg",
        "toc": False,
    }
    last = {"start": 244.999, "title": "Last"}

    # When the episode is read
    episode = parsed(chapters=[first, last])

    # Then both are kept, their starts as numbers of seconds
    assert [(chapter.start, chapter.title, chapter.toc) for chapter in episode.chapters] == [
        (0.0, "t" * 200, False),
        (244.999, "Last", True),
    ]


def test_500_chapters_are_accepted():
    # Given 500 chapters a second apart, in an episode long enough for them
    document = episode_document(duration="PT10M", chapters=chapters(*range(500)))

    # When it is read
    episode = parse_episode(json.dumps(document).encode())

    # Then all are kept, in order
    assert [chapter.start for chapter in episode.chapters] == list(range(500))


def test_a_chapter_start_may_be_whole_or_fractional():
    assert [chapter.start for chapter in parsed(chapters=chapters(0, 12.5, 60)).chapters] == [0, 12.5, 60]


def test_a_start_of_minus_zero_is_read_as_zero():
    # Given a chapter starting at -0.0, which JSON allows
    # When the episode is read and written again
    dumped = parsed(chapters=chapters(-0.0)).model_dump(mode="json")

    # Then it starts at 0, never "-0"
    assert str(dumped["chapters"][0]["start"]) == "0.0"


def test_soundbites_at_their_limits_are_accepted():
    # Given 20 soundbites, the last one ending exactly where the audio ends (240.1 + 4.9 = 245)
    bites = [{"start": index, "duration": 0.5, "title": "b" * 128} for index in range(19)]
    bites.append({"start": 240.1, "duration": 4.9})

    # When the episode is read
    episode = parsed(soundbites=bites)

    # Then all are kept
    assert len(episode.soundbites) == 20


def test_ten_alternate_enclosures_with_every_field_are_accepted():
    # Given ten enclosures, audio and video, one of them the default
    enclosures = [
        {
            "url": f"https://media.example.com/{index}.mp4",
            "type": "video/mp4" if index % 2 else "audio/ogg",
            "length": 10**13 - 1,
            "bitrate": 160707.74,
            "title": "t" * 32,
            "default": index == 0,
        }
        for index in range(10)
    ]

    # When the episode is read
    episode = parsed(alternate_enclosures=enclosures)

    # Then all are kept
    assert [enclosure.default for enclosure in episode.alternate_enclosures] == [True] + [False] * 9


def test_an_alternate_enclosure_needs_only_url_type_and_length():
    enclosure = parsed(alternate_enclosures=[{**ENCLOSURE, "length": 0}]).alternate_enclosures[0]

    assert (enclosure.bitrate, enclosure.title, enclosure.default) == (None, None, False)


def test_block_is_accepted():
    assert parsed(block=True).block is True


# --- rejected, naming the field ------------------------------------------------------------------

EPISODE_CASES = [
    ("empty notes", {"notes": ""}, "notes", "at least 1"),
    ("blank notes", {"notes": "\u200b \n"}, "notes", "no visible character"),
    ("notes too long", {"notes": "x" * 20_001}, "notes", "at most 20000"),
    ("notes with a control", {"notes": "bell\x07"}, "notes", "U+0007"),
    ("notes as a list", {"notes": ["a"]}, "notes", "valid string"),
    ("unknown episode type", {"episode_type": "teaser"}, "episode_type", "'full', 'trailer' or 'bonus'"),
    ("episode type in capitals", {"episode_type": "Full"}, "episode_type", "'full', 'trailer' or 'bonus'"),
    ("no chapters", {"chapters": []}, "chapters", "at least 1"),
    ("501 chapters", {"duration": "PT10M", "chapters": chapters(*range(501))}, "chapters", "at most 500"),
    ("chapters as an object", {"chapters": {"start": 0, "title": "a"}}, "chapters", "valid array"),
    ("chapter without start", {"chapters": [{"title": "a"}]}, "chapters.0.start", "Field required"),
    ("chapter without title", {"chapters": [{"start": 0}]}, "chapters.0.title", "Field required"),
    ("negative start", {"chapters": chapters(-1)}, "chapters.0.start", "greater than or equal to 0"),
    ("start as bool", {"chapters": chapters(True)}, "chapters.0.start", "valid number"),
    ("start as string", {"chapters": chapters("12")}, "chapters.0.start", "valid number"),
    ("start past a double", {"chapters": chapters(10**400)}, "chapters.0.start", "finite number"),
    ("chapter title too long", {"chapters": [{"start": 0, "title": "t" * 201}]}, "chapters.0.title", "at most 200"),
    ("chapter title on two lines", {"chapters": [{"start": 0, "title": "a\nb"}]}, "chapters.0.title", "single line"),
    ("chapter title with bidi", {"chapters": [{"start": 0, "title": "a\u202eb"}]}, "chapters.0.title", "U+202E"),
    ("toc as string", {"chapters": [{"start": 0, "title": "a", "toc": "no"}]}, "chapters.0.toc", "valid boolean"),
    ("chapter field typo", {"chapters": [{"start": 0, "title": "a", "img": "x"}]}, "chapters.0.img", "Extra inputs"),
    ("no soundbites", {"soundbites": []}, "soundbites", "at least 1"),
    ("21 soundbites", {"soundbites": [{"start": 0, "duration": 1}] * 21}, "soundbites", "at most 20"),
    ("zero soundbite", {"soundbites": [{"start": 0, "duration": 0}]}, "soundbites.0.duration", "greater than 0"),
    ("negative bite start", {"soundbites": [{"start": -1, "duration": 1}]}, "soundbites.0.start", "greater than"),
    ("bite duration as bool", {"soundbites": [{"start": 0, "duration": True}]}, "soundbites.0.duration", "number"),
    (
        "bite title too long",
        {"soundbites": [{"start": 0, "duration": 1, "title": "t" * 129}]},
        "soundbites.0.title",
        "128",
    ),
    ("bite without duration", {"soundbites": [{"start": 0}]}, "soundbites.0.duration", "Field required"),
    ("no alternate enclosures", {"alternate_enclosures": []}, "alternate_enclosures", "at least 1"),
    ("11 alternate enclosures", {"alternate_enclosures": [ENCLOSURE] * 11}, "alternate_enclosures", "at most 10"),
    (
        "text enclosure",
        {"alternate_enclosures": [{**ENCLOSURE, "type": "text/html"}]},
        "alternate_enclosures.0.type",
        "audio or video",
    ),
    (
        "enclosure type and newline",
        {"alternate_enclosures": [{**ENCLOSURE, "type": "video/mp4\n"}]},
        "alternate_enclosures.0.type",
        "audio or video",
    ),
    (
        "enclosure type in capitals",
        {"alternate_enclosures": [{**ENCLOSURE, "type": "Video/MP4"}]},
        "alternate_enclosures.0.type",
        "audio or video",
    ),
    (
        "negative enclosure length",
        {"alternate_enclosures": [{**ENCLOSURE, "length": -1}]},
        "alternate_enclosures.0.length",
        "greater than or equal to 0",
    ),
    (
        "enclosure length too big",
        {"alternate_enclosures": [{**ENCLOSURE, "length": 10**13}]},
        "alternate_enclosures.0.length",
        "less than",
    ),
    (
        "enclosure length as float",
        {"alternate_enclosures": [{**ENCLOSURE, "length": 1.5}]},
        "alternate_enclosures.0.length",
        "valid integer",
    ),
    (
        "enclosure length as bool",
        {"alternate_enclosures": [{**ENCLOSURE, "length": True}]},
        "alternate_enclosures.0.length",
        "valid integer",
    ),
    (
        "zero bitrate",
        {"alternate_enclosures": [{**ENCLOSURE, "bitrate": 0}]},
        "alternate_enclosures.0.bitrate",
        "greater than 0",
    ),
    (
        "bitrate as bool",
        {"alternate_enclosures": [{**ENCLOSURE, "bitrate": True}]},
        "alternate_enclosures.0.bitrate",
        "valid number",
    ),
    (
        "enclosure title too long",
        {"alternate_enclosures": [{**ENCLOSURE, "title": "t" * 33}]},
        "alternate_enclosures.0.title",
        "at most 32",
    ),
    (
        "default as string",
        {"alternate_enclosures": [{**ENCLOSURE, "default": "true"}]},
        "alternate_enclosures.0.default",
        "valid boolean",
    ),
    (
        "enclosure without length",
        {"alternate_enclosures": [{"url": ENCLOSURE["url"], "type": "audio/ogg"}]},
        "alternate_enclosures.0.length",
        "Field required",
    ),
    ("block as string", {"block": "yes"}, "block", "valid boolean"),
    ("block as null", {"block": None}, "block", "valid boolean"),
    ("typo in a v2 field name", {"chapter": chapters(0)}, "chapter", "Extra inputs are not permitted"),
    ("a show field on an episode", {"medium": "music"}, "medium", "Extra inputs are not permitted"),
]


@pytest.mark.parametrize(
    ("fields", "field", "says"), [case[1:] for case in EPISODE_CASES], ids=[case[0] for case in EPISODE_CASES]
)
def test_a_bad_v2_episode_field_is_named_with_its_reason(fields, field, says):
    # Given an otherwise good episode with one bad v2 field
    document = {**copy.deepcopy(episode_document()), **copy.deepcopy(fields)}

    # When it is read
    problems = problems_of(document)

    # Then that field alone is named, and why
    assert list(problems) == [field], problems
    assert says in problems[field]


URL_FIELDS = [
    ("chapters.0.url", lambda url: {"chapters": [{"start": 0, "title": "a", "url": url}]}),
    ("chapters.0.image", lambda url: {"chapters": [{"start": 0, "title": "a", "image": url}]}),
    ("alternate_enclosures.0.url", lambda url: {"alternate_enclosures": [{**ENCLOSURE, "url": url}]}),
]


@pytest.mark.parametrize("url", HOSTILE_URLS)
@pytest.mark.parametrize(("field", "fields"), URL_FIELDS, ids=[field for field, _ in URL_FIELDS])
def test_a_url_that_is_not_https_is_rejected_in_every_v2_episode_field(field, fields, url):
    assert list(problems_of(episode_document(**fields(url)))) == [field]


# --- chapters and soundbites against each other and the duration ---------------------------------


def test_chapters_out_of_order_are_rejected_naming_the_later_one():
    # Given chapters at 0, 60 and 30 s
    # When the episode is read
    problems = problems_of(episode_document(chapters=chapters(0, 60, 30)))

    # Then the third is named: it starts before the second
    assert list(problems) == ["chapters.2.start"]


def test_the_message_for_chapters_out_of_order_names_the_start_to_pass():
    problems = problems_of(episode_document(chapters=chapters(0, 60, 30)))

    assert problems["chapters.2.start"] == "must be later than chapter 1's start, 60 s"


def test_two_chapters_starting_together_are_rejected():
    assert list(problems_of(episode_document(chapters=chapters(0, 12.5, 12.5)))) == ["chapters.2.start"]


def test_every_chapter_out_of_order_is_named_at_once():
    assert list(problems_of(episode_document(chapters=chapters(10, 5, 5, 20, 1)))) == [
        "chapters.1.start",
        "chapters.2.start",
        "chapters.4.start",
    ]


def test_a_chapter_starting_at_the_end_of_the_audio_is_rejected():
    # Given a 245-second episode with a chapter at 245 s
    # When it is read
    problems = problems_of(episode_document(chapters=chapters(0, 245)))

    # Then that chapter's start is named
    assert problems == {"chapters.1.start": "must be before the end of the audio, 245 s"}


def test_a_chapter_starting_past_the_end_of_the_audio_is_rejected():
    assert list(problems_of(episode_document(chapters=chapters(0, 10_000)))) == ["chapters.1.start"]


def test_a_chapter_past_the_end_is_reported_with_the_episodes_other_bad_fields():
    # Given an episode with a blank title and a chapter past the end
    document = episode_document(title="", chapters=chapters(0, 300))

    # When it is read
    problems = problems_of(document)

    # Then both are named at once
    assert list(problems) == ["title", "chapters.1.start"]


def test_with_a_bad_duration_only_the_duration_is_reported():
    # Given a duration too short, and a chapter that would be past any end
    # When the episode is read
    problems = problems_of(episode_document(duration="PT0S", chapters=chapters(0, 10_000)))

    # Then the duration is named; the chapters cannot be measured against it
    assert list(problems) == ["duration"]


def test_a_soundbite_running_past_the_end_is_rejected_naming_its_duration():
    # Given a 245-second episode with a soundbite from 200 s lasting 46 s
    # When it is read
    problems = problems_of(episode_document(soundbites=[{"start": 200, "duration": 46}]))

    # Then its duration is named, with where it would end
    assert problems == {
        "soundbites.0.duration": "takes the soundbite to 246 s, past the end of the audio at 245 s",
    }


def test_a_soundbite_starting_at_the_end_is_rejected_naming_its_start():
    problems = problems_of(episode_document(soundbites=[{"start": 245, "duration": 1}]))

    assert list(problems) == ["soundbites.0.start"]


def test_every_soundbite_past_the_end_is_named_at_once():
    bites = [{"start": 0, "duration": 30}, {"start": 240, "duration": 30}, {"start": 300, "duration": 1}]

    assert list(problems_of(episode_document(soundbites=bites))) == ["soundbites.1.duration", "soundbites.2.start"]


def test_two_default_alternate_enclosures_are_rejected_naming_the_second():
    # Given two enclosures that both claim to be the default
    enclosures = [{**ENCLOSURE, "default": True}, {**ENCLOSURE, "default": False}, {**ENCLOSURE, "default": True}]

    # When the episode is read
    problems = problems_of(episode_document(alternate_enclosures=enclosures))

    # Then the second default is named
    assert problems == {"alternate_enclosures.2.default": "must be false: alternate enclosure 0 is already the default"}


# --- serialised as v1 when v2 is not used --------------------------------------------------------


def test_an_episode_without_v2_fields_serialises_with_v1_fields_only():
    # Given a v1 episode, read by the v2 contract
    # When it is serialised, as the catalog stores it
    dumped = parsed().model_dump(mode="json")

    # Then it holds v1's fields and nothing else
    assert list(dumped) == [
        "title",
        "published",
        "duration",
        "summary",
        "audio",
        "transcript",
        "guid",
        "episode_number",
        "season",
        "explicit",
        "image",
        "keywords",
    ]


def test_an_episode_with_v2_fields_reads_back_as_it_was():
    # Given an episode using v2 fields, some at their defaults
    episode = parsed(
        notes="*Hi*",
        episode_type="full",
        chapters=chapters(0, 12.5),
        soundbites=[{"start": 1, "duration": 2}],
        alternate_enclosures=[ENCLOSURE],
        persons=[{"name": "Ada", "role": "Guest"}],
        block=False,
    )

    # When it is serialised and read again
    again = Episode.model_validate_json(episode.model_dump_json())

    # Then nothing changed
    assert again == episode
