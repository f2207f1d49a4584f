"""Contract v2, the show: funding, medium, update frequency, txt records, podroll, type, complete,
block, new feed URL and copyright; and the serial rule, which spans a show and an episode."""

import copy
import json

import pytest

from podpages.contract.documents import Show, parse_episode, parse_show
from podpages.contract.serial import serial_problems
from podpages.errors import ContractError, Problem
from support.catalogs import episode_document, show_document

GUID = "917393e3-1b1e-5cef-ace4-edaa54e1f810"
FUNDING = {"url": "https://example.com/support", "text": "Support the show"}
HOSTILE_URLS = ["http://example.com/f", "javascript:alert(1)", "data:text/html,<script>", "https://", "https://a b"]


def parsed(**fields) -> Show:
    return parse_show(json.dumps(show_document(**fields)).encode())


def problems_of(document: dict) -> dict[str, str]:
    with pytest.raises(ContractError) as raised:
        parse_show(json.dumps(document).encode())
    return {problem.field: problem.message for problem in raised.value.problems}


def test_a_show_without_v2_fields_takes_their_defaults():
    # Given a v1 show
    # When it is read
    show = parsed()

    # Then every v2 field holds its default
    assert (
        show.persons,
        show.funding,
        show.license,
        show.location,
        show.medium,
        show.update_frequency,
        show.txt,
        show.podroll,
        show.type,
        show.complete,
        show.block,
        show.new_feed_url,
        show.copyright,
    ) == (None, None, None, None, "podcast", None, None, None, "episodic", False, False, None, None)


def test_every_v2_show_field_at_its_limits_is_accepted():
    # Given a show using every v2 field at its limits
    document = show_document(
        funding=[{"url": f"https://example.com/{index}", "text": "t" * 128} for index in range(5)],
        medium="audiobook",
        update_frequency={"text": "t" * 128, "rrule": "FREQ=DAILY;INTERVAL=" + "1" * 480, "complete": True},
        txt=[{"value": "v" * 4000, "purpose": "p" * 128} for _ in range(10)],
        podroll=[{"feed_guid": GUID, "feed_url": "https://example.com/feed.xml", "title": "t" * 255}] * 50,
        type="serial",
        complete=True,
        block=True,
        new_feed_url="https://new.example.com/feed.xml",
        copyright="©" * 500,
    )

    # When it is read
    show = parse_show(json.dumps(document).encode())

    # Then each is kept
    assert (
        len(show.funding),
        show.medium,
        len(show.update_frequency.rrule),
        len(show.txt),
        len(show.podroll),
        show.type,
        show.complete,
        show.block,
        len(show.copyright),
    ) == (5, "audiobook", 500, 10, 50, "serial", True, True, 500)


@pytest.mark.parametrize("medium", ["podcast", "music", "video", "film", "audiobook", "newsletter", "blog"])
def test_each_medium_is_accepted(medium):
    assert parsed(medium=medium).medium == medium


@pytest.mark.parametrize("show_type", ["episodic", "serial"])
def test_each_show_type_is_accepted(show_type):
    assert parsed(type=show_type).type == show_type


@pytest.mark.parametrize(
    "rrule",
    [
        "FREQ=WEEKLY",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
        "FREQ=YEARLY;BYDAY=+4TH;BYMONTH=11",
        "freq=daily;byday=mo,tu,we,th,fr",
        "BYDAY=MO;FREQ=WEEKLY",
        "FREQ=WEEKLY;UNTIL=2023-12-31T00:00:00.000Z;BYDAY=MO",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=10",
        "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR;WKST=SU",
    ],
)
def test_an_rfc_5545_recurrence_rule_is_accepted(rrule):
    assert parsed(update_frequency={"text": "Now and then", "rrule": rrule}).update_frequency.rrule == rrule


def test_an_update_frequency_needs_only_its_text():
    frequency = parsed(update_frequency={"text": "That's all folks!"}).update_frequency

    assert (frequency.rrule, frequency.complete) == (None, False)


def test_a_podroll_entry_needs_only_its_feed_guid():
    [entry] = parsed(podroll=[{"feed_guid": GUID.upper()}]).podroll

    assert (entry.feed_guid, entry.feed_url, entry.title) == (GUID.upper(), None, None)


def test_a_txt_record_needs_only_its_value():
    assert parsed(txt=[{"value": "S6lpp-7ZCn8-dZfGc-OoyaG"}]).txt[0].purpose is None


SHOW_CASES = [
    ("no funding", {"funding": []}, "funding", "at least 1"),
    ("6 funding entries", {"funding": [FUNDING] * 6}, "funding", "at most 5"),
    ("funding without text", {"funding": [{"url": FUNDING["url"]}]}, "funding.0.text", "Field required"),
    ("funding without url", {"funding": [{"text": "Give"}]}, "funding.0.url", "Field required"),
    ("funding text too long", {"funding": [{**FUNDING, "text": "t" * 129}]}, "funding.0.text", "at most 128"),
    ("funding text on two lines", {"funding": [{**FUNDING, "text": "a\nb"}]}, "funding.0.text", "single line"),
    ("unknown medium", {"medium": "radio"}, "medium", "Input should be 'podcast'"),
    ("a list medium", {"medium": "podcastL"}, "medium", "Input should be 'podcast'"),
    ("medium in capitals", {"medium": "Music"}, "medium", "Input should be 'podcast'"),
    ("unknown type", {"type": "seasonal"}, "type", "'episodic' or 'serial'"),
    ("type as null", {"type": None}, "type", "'episodic' or 'serial'"),
    ("frequency without text", {"update_frequency": {"rrule": "FREQ=WEEKLY"}}, "update_frequency.text", "required"),
    ("frequency text too long", {"update_frequency": {"text": "t" * 129}}, "update_frequency.text", "at most 128"),
    (
        "rrule too long",
        {"update_frequency": {"text": "t", "rrule": "FREQ=DAILY;INTERVAL=" + "1" * 481}},
        "update_frequency.rrule",
        "at most 500",
    ),
    ("rrule of words", {"update_frequency": {"text": "t", "rrule": "weekly"}}, "update_frequency.rrule", "NAME=VALUE"),
    (
        "rrule with a newline",
        {"update_frequency": {"text": "t", "rrule": "FREQ=WEEKLY\n"}},
        "update_frequency.rrule",
        "",
    ),
    ("rrule without FREQ", {"update_frequency": {"text": "t", "rrule": "BYDAY=MO"}}, "update_frequency.rrule", "FREQ"),
    (
        "rrule of FREQ=SOMETIMES",
        {"update_frequency": {"text": "t", "rrule": "FREQ=SOMETIMES"}},
        "update_frequency.rrule",
        "FREQ must be",
    ),
    (
        "rrule of an unknown part",
        {"update_frequency": {"text": "t", "rrule": "FREQ=WEEKLY;EVERY=2"}},
        "update_frequency.rrule",
        "'EVERY'",
    ),
    (
        "rrule giving FREQ twice",
        {"update_frequency": {"text": "t", "rrule": "FREQ=WEEKLY;FREQ=DAILY"}},
        "update_frequency.rrule",
        "more than once",
    ),
    (
        "rrule with UNTIL and COUNT",
        {"update_frequency": {"text": "t", "rrule": "FREQ=DAILY;COUNT=3;UNTIL=20260101"}},
        "update_frequency.rrule",
        "not both",
    ),
    (
        "rrule ending in ;",
        {"update_frequency": {"text": "t", "rrule": "FREQ=WEEKLY;"}},
        "update_frequency.rrule",
        "NAME=VALUE",
    ),
    (
        "complete as string",
        {"update_frequency": {"text": "t", "complete": "true"}},
        "update_frequency.complete",
        "boolean",
    ),
    ("no txt", {"txt": []}, "txt", "at least 1"),
    ("11 txt records", {"txt": [{"value": "v"}] * 11}, "txt", "at most 10"),
    ("txt value too long", {"txt": [{"value": "v" * 4001}]}, "txt.0.value", "at most 4000"),
    ("txt purpose too long", {"txt": [{"value": "v", "purpose": "p" * 129}]}, "txt.0.purpose", "at most 128"),
    ("txt value blank", {"txt": [{"value": "\u3164"}]}, "txt.0.value", "no visible character"),
    ("no podroll", {"podroll": []}, "podroll", "at least 1"),
    ("51 podroll entries", {"podroll": [{"feed_guid": GUID}] * 51}, "podroll", "at most 50"),
    ("podroll guid not a uuid", {"podroll": [{"feed_guid": "my-show"}]}, "podroll.0.feed_guid", "pattern"),
    ("podroll guid and newline", {"podroll": [{"feed_guid": GUID + "\n"}]}, "podroll.0.feed_guid", "pattern"),
    (
        "podroll title too long",
        {"podroll": [{"feed_guid": GUID, "title": "t" * 256}]},
        "podroll.0.title",
        "at most 255",
    ),
    ("complete as string", {"complete": "yes"}, "complete", "valid boolean"),
    ("block as number", {"block": 1}, "block", "valid boolean"),
    ("copyright too long", {"copyright": "c" * 501}, "copyright", "at most 500"),
    ("copyright on two lines", {"copyright": "2026\nme"}, "copyright", "single line"),
    ("typo in a v2 field name", {"update_frequncy": {"text": "Weekly"}}, "update_frequncy", "Extra inputs"),
    ("an episode field on a show", {"episode_type": "full"}, "episode_type", "Extra inputs"),
]


@pytest.mark.parametrize(
    ("fields", "field", "says"), [case[1:] for case in SHOW_CASES], ids=[case[0] for case in SHOW_CASES]
)
def test_a_bad_v2_show_field_is_named_with_its_reason(fields, field, says):
    # Given an otherwise good show with one bad v2 field
    document = {**copy.deepcopy(show_document()), **copy.deepcopy(fields)}

    # When it is read
    problems = problems_of(document)

    # Then that field alone is named, and why
    assert list(problems) == [field], problems
    assert says in problems[field]


def test_a_podroll_entry_with_a_misspelt_field_names_the_misspelling_too():
    problems = problems_of(show_document(podroll=[{"feedGuid": GUID}]))

    assert set(problems) == {"podroll.0.feed_guid", "podroll.0.feedGuid"}


URL_FIELDS = [
    ("funding.0.url", lambda url: {"funding": [{**FUNDING, "url": url}]}),
    ("podroll.0.feed_url", lambda url: {"podroll": [{"feed_guid": GUID, "feed_url": url}]}),
    ("new_feed_url", lambda url: {"new_feed_url": url}),
]


@pytest.mark.parametrize("url", HOSTILE_URLS)
@pytest.mark.parametrize(("field", "fields"), URL_FIELDS, ids=[field for field, _ in URL_FIELDS])
def test_a_url_that_is_not_https_is_rejected_in_every_v2_show_field(field, fields, url):
    assert list(problems_of(show_document(**fields(url)))) == [field]


def test_a_show_without_v2_fields_serialises_with_v1_fields_only():
    # Given a v1 show, read by the v2 contract
    # When it is serialised, as the catalog stores it
    dumped = parsed().model_dump(mode="json")

    # Then it holds v1's fields and nothing else
    assert list(dumped) == [
        "title",
        "description",
        "categories",
        "author",
        "language",
        "owner",
        "image",
        "link",
        "explicit",
        "overview",
        "guid",
        "locked",
    ]


def test_a_show_with_v2_fields_reads_back_as_it_was():
    # Given a show using v2 fields, some at their defaults
    show = parsed(
        funding=[FUNDING],
        medium="podcast",
        update_frequency={"text": "Weekly", "rrule": "FREQ=WEEKLY"},
        podroll=[{"feed_guid": GUID}],
        type="serial",
        location={"name": "Austin", "geo": "geo:30.2672,-97.7431"},
    )

    # When it is serialised and read again
    again = Show.model_validate_json(show.model_dump_json())

    # Then nothing changed
    assert again == show


# --- the serial rule -----------------------------------------------------------------------------


def episode(**fields):
    return parse_episode(json.dumps(episode_document(**fields)).encode())


def test_an_episode_without_a_number_in_a_serial_show_breaks_the_serial_rule():
    # Given a serial show and an episode with no episode_number
    # When the rule is applied to the pair
    problems = serial_problems(parsed(type="serial"), episode())

    # Then episode_number is named
    assert problems == [
        Problem("episode_number", "is required: the show is serial, and its episodes are played in order")
    ]


def test_a_numbered_episode_in_a_serial_show_keeps_the_serial_rule():
    assert serial_problems(parsed(type="serial"), episode(episode_number=1)) == []


@pytest.mark.parametrize("show_fields", [{}, {"type": "episodic"}], ids=["default", "episodic"])
def test_an_episodic_show_needs_no_episode_numbers(show_fields):
    assert serial_problems(parsed(**show_fields), episode()) == []
