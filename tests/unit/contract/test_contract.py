"""The metadata contract: what is accepted, and that every rejection names its field and says why."""

import copy
import json

import pytest

from podpages.contract.documents import MAX_DOCUMENT_BYTES, parse_episode, parse_show
from podpages.contract.schemas import SCHEMAS, schema_text
from podpages.errors import ContractError
from support.catalogs import episode_document, show_document
from support.paths import EXAMPLES, ROOT


def problems_of(parse, document) -> dict[str, str]:
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    with pytest.raises(ContractError) as caught:
        parse(body)
    return {problem.field: problem.message for problem in caught.value.problems}


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("episodes/*/*.json")), ids=lambda path: path.stem)
def test_every_example_episode_is_valid(path):
    assert parse_episode(path.read_bytes()).title


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("shows/*.json")), ids=lambda path: path.stem)
def test_every_example_show_is_valid(path):
    assert parse_show(path.read_bytes()).categories


def test_a_minimal_episode_takes_the_defaults():
    episode = parse_episode(json.dumps(episode_document()).encode())

    assert (episode.transcript, episode.guid, episode.explicit, episode.keywords) == (None, None, None, ())


def test_an_offset_is_kept_and_a_long_duration_normalised():
    episode = parse_episode(
        json.dumps(episode_document(published="2026-01-28T06:05:41-05:00", duration="PT90M")).encode()
    )

    assert episode.published.utcoffset().total_seconds() == -5 * 3600
    assert episode.model_dump(mode="json")["duration"] == "PT1H30M"


EPISODE_CASES = [
    ("missing title", lambda d: d.pop("title"), "title", "Field required"),
    ("blank title", lambda d: d.update(title="   "), "title", "must not be blank"),
    ("title too long", lambda d: d.update(title="x" * 201), "title", "at most 200"),
    ("title on two lines", lambda d: d.update(title="a\nb"), "title", "single line"),
    ("title not a string", lambda d: d.update(title=42), "title", "valid string"),
    ("naive datetime", lambda d: d.update(published="2026-01-28T11:05:41"), "published", "timezone"),
    ("date only", lambda d: d.update(published="2026-01-28"), "published", ""),
    ("published not a date", lambda d: d.update(published="last tuesday"), "published", ""),
    ("zero duration", lambda d: d.update(duration="PT0S"), "duration", "at least 1 second"),
    ("negative duration", lambda d: d.update(duration="-PT5M"), "duration", "at least 1 second"),
    ("49 hours", lambda d: d.update(duration="PT49H"), "duration", "at most 48 hours"),
    ("months", lambda d: d.update(duration="P1M"), "duration", "fixed length"),
    ("duration as seconds", lambda d: d.update(duration=245), "duration", "ISO 8601"),
    ("duration nonsense", lambda d: d.update(duration="four minutes"), "duration", "ISO 8601"),
    ("summary too long", lambda d: d.update(summary="x" * 4001), "summary", "at most 4000"),
    ("control character", lambda d: d.update(summary="bell\x07"), "summary", "U+0007"),
    ("C1 control", lambda d: d.update(summary="next\x85line"), "summary", "U+0085"),
    ("missing audio", lambda d: d.pop("audio"), "audio", "Field required"),
    ("http audio", lambda d: d["audio"].update(url="http://media.example.com/a.mp3"), "audio.url", "https"),
    ("video audio", lambda d: d["audio"].update(type="video/mp4"), "audio.type", "audio media type"),
    ("negative length", lambda d: d["audio"].update(length=-1), "audio.length", "greater than or equal to 0"),
    ("length as string", lambda d: d["audio"].update(length="1000"), "audio.length", "valid integer"),
    ("length as bool", lambda d: d["audio"].update(length=True), "audio.length", "valid integer"),
    ("unknown audio field", lambda d: d["audio"].update(bitrate=128), "audio.bitrate", "Extra inputs"),
    ("episode zero", lambda d: d.update(episode_number=0), "episode_number", "greater than or equal to 1"),
    ("season as string", lambda d: d.update(season="2"), "season", "valid integer"),
    ("explicit as string", lambda d: d.update(explicit="yes"), "explicit", "valid boolean"),
    ("http image", lambda d: d.update(image="http://example.com/a.jpg"), "image", "https"),
    ("keywords as string", lambda d: d.update(keywords="a, b"), "keywords", ""),
    ("blank keyword", lambda d: d.update(keywords=["ok", ""]), "keywords.1", ""),
    ("guid too long", lambda d: d.update(guid="g" * 256), "guid", "at most 255"),
    ("typo in a field name", lambda d: d.update(sumary="typo"), "sumary", "Extra inputs are not permitted"),
    ("a show field", lambda d: d.update(show="pytorch"), "show", "Extra inputs are not permitted"),
]


@pytest.mark.parametrize(
    ("mutate", "field", "says"), [case[1:] for case in EPISODE_CASES], ids=[c[0] for c in EPISODE_CASES]
)
def test_a_bad_episode_field_is_named_with_its_reason(mutate, field, says):
    document = copy.deepcopy(episode_document())
    mutate(document)

    problems = problems_of(parse_episode, document)

    assert field in problems, problems
    assert says in problems[field]


def test_every_bad_field_is_reported_at_once():
    document = episode_document(title="", published="2026-01-28T11:05:41", duration="PT0S", colour="red")

    assert set(problems_of(parse_episode, document)) == {"title", "published", "duration", "colour"}


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"{not json", "Invalid JSON"),
        (b"", "Invalid JSON"),
        (b"[1, 2]", "object"),
        (b"\xef\xbb\xbf" + json.dumps(episode_document()).encode(), "byte-order mark"),
        ('{"title": "caf\xe9"}'.encode("latin-1"), "not UTF-8: byte 0xe9"),
        (b" " * (MAX_DOCUMENT_BYTES + 1), "larger than"),
    ],
    ids=["invalid JSON", "empty", "array", "BOM", "latin-1", "over 1 MiB"],
)
def test_a_bad_document_is_named_as_a_whole(body, says):
    problems = problems_of(parse_episode, body)

    assert says in problems["document"]


def test_markup_in_text_is_accepted_for_escaping_later():
    episode = parse_episode(json.dumps(episode_document(title="</script><b>&]]>")).encode())

    assert episode.title == "</script><b>&]]>"


SHOW_CASES = [
    ("missing categories", lambda d: d.pop("categories"), "categories", "Field required"),
    ("no categories", lambda d: d.update(categories=[]), "categories", "at least 1"),
    (
        "unknown category",
        lambda d: d.update(categories=["Techology"]),
        "categories.0",
        "not an Apple Podcasts category",
    ),
    ("description over 4000 bytes", lambda d: d.update(description="é" * 2001), "description", "4000 bytes"),
    ("bad language", lambda d: d.update(language="english!"), "language", "pattern"),
    ("bad owner email", lambda d: d.update(owner={"name": "A", "email": "nobody"}), "owner.email", ""),
    ("guid not a uuid", lambda d: d.update(guid="my-show"), "guid", ""),
    ("locked as string", lambda d: d.update(locked="yes"), "locked", "valid boolean"),
    ("unknown field", lambda d: d.update(website="https://x.example"), "website", "Extra inputs"),
]


@pytest.mark.parametrize(("mutate", "field", "says"), [case[1:] for case in SHOW_CASES], ids=[c[0] for c in SHOW_CASES])
def test_a_bad_show_field_is_named_with_its_reason(mutate, field, says):
    document = copy.deepcopy(show_document())
    mutate(document)

    problems = problems_of(parse_show, document)

    assert field in problems, problems
    assert says in problems[field]


def test_a_subcategory_is_a_category_name():
    assert parse_show(json.dumps(show_document(categories=["Tech News", "Technology"])).encode()).categories == (
        "Tech News",
        "Technology",
    )


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_the_exported_schemas_are_in_step_with_the_models(name):
    exported = (ROOT / "schemas" / name).read_text()

    assert exported == schema_text(name), "run `make schemas` and commit the result"
