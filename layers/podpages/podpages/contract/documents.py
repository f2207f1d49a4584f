"""The metadata contract: what a publisher may upload, checked field by field.

`episodes/<show>/<episode>.json` holds an `Episode`, `shows/<show>.json` a `Show`.
Unknown fields are rejected, so that a typo never passes silently.

v2 only adds optional fields, so every v1 document stays valid and means what it meant; their types
live in a module each (`chapters`, `persons`, `soundbites`, `location`, `license`, `episode_extras`,
`show_extras`), and `since_v2` leaves their defaults out when a model is serialised.
"""

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BeforeValidator,
    Field,
    PlainSerializer,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
)

from podpages.contract import apple_categories
from podpages.contract.chapters import Chapters, starts_past_the_end
from podpages.contract.episode_extras import AlternateEnclosures, EpisodeType
from podpages.contract.fields import Contract, HttpsUrl, PodcastGuid, reject, since_v2
from podpages.contract.license import License
from podpages.contract.location import Location
from podpages.contract.persons import Persons
from podpages.contract.plain_text import Line, PlainText, check_characters, nfc
from podpages.contract.show_extras import Funding, Medium, PodrollItem, ShowType, Txt, UpdateFrequency
from podpages.contract.soundbites import Soundbites, soundbites_past_the_end
from podpages.contract.source_keys import MAX_DOCUMENT_BYTES
from podpages.durations import iso_duration, parse_duration
from podpages.errors import ContractError, Problem

CONTRACT_VERSION = 1
DOCUMENT = "document"  # the field name for problems with the whole file
_BOM = b"\xef\xbb\xbf"


AUDIO_TYPE = re.compile(r"^audio/[a-z0-9][a-z0-9.+-]*$")
AUDIO_TYPE_SCHEMA = {"type": "string", "pattern": AUDIO_TYPE.pattern, "maxLength": 100, "examples": ["audio/mpeg"]}


def _audio_type(value: str) -> str:
    if not AUDIO_TYPE.fullmatch(value):
        raise ValueError("must be an audio media type such as audio/mpeg")
    return value


# RFC 3339's date-time, with the space its note allows; the offset is checked by AwareDatetime, so that a
# naive time is reported as one. pydantic alone would take a string of digits as a Unix time.
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})?")


def _rfc3339_text(value: object) -> object:
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not RFC3339.fullmatch(value):
        raise ValueError("must be an RFC 3339 date-time with an offset, such as 2026-01-28T11:05:41Z")
    return value


def _four_digit_utc_year(value: datetime) -> datetime:
    """Pages, feeds and archive paths print the year in UTC; it must exist and have four digits."""
    try:
        year = value.astimezone(UTC).year
    except OverflowError:  # 0001-01-01T00:00:00+01:00 is in year 0 in UTC; 9999-12-31T23:00:00-02:00 in 10000
        year = 0
    if year < 1000:
        raise ValueError("must fall between the years 1000 and 9999 in UTC")
    return value


def _duration(value: object) -> timedelta:
    try:
        return parse_duration(value)
    except OverflowError:  # more days than a timedelta holds, so far over the limit
        raise ValueError("must be at most 48 hours (PT48H)") from None


def _description_bytes(value: str) -> str:
    if len(value.encode()) > 4000:
        raise ValueError("must be at most 4000 bytes of UTF-8")
    return value


Duration = Annotated[
    timedelta,
    BeforeValidator(_duration),
    PlainSerializer(iso_duration, return_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "format": "duration",
            "description": "ISO 8601 duration, at least PT1S and at most PT48H",
            "examples": ["PT4M5S", "PT90M"],
        }
    ),
]
Category = Annotated[
    str, AfterValidator(apple_categories.check), WithJsonSchema({"enum": list(apple_categories.NAMES)})
]
Keyword = Annotated[Line, Field(max_length=100)]
# Episode and season numbers: feeds and JSON-LD print them, so they stay short.
Ordinal = Annotated[int, Field(ge=1, lt=10**6)]
Language = Annotated[str, Field(pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")]
EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
Email = Annotated[str, Field(max_length=254, pattern=EMAIL), AfterValidator(nfc), AfterValidator(check_characters)]
# Lax, so that the string the RFC 3339 check passes on is parsed: after a before-validator, strict mode
# would take nothing but a datetime.
Published = Annotated[
    AwareDatetime,
    Field(strict=False, description="RFC 3339 date-time with an offset"),
    BeforeValidator(_rfc3339_text),
    AfterValidator(_four_digit_utc_year),
]


class Audio(Contract):
    """The episode's media file: the feed's enclosure."""

    url: HttpsUrl
    type: Annotated[str, Field(max_length=100), AfterValidator(_audio_type), WithJsonSchema(AUDIO_TYPE_SCHEMA)]
    length: Annotated[int, Field(ge=0, lt=10**13, description="size in bytes")]


class Episode(Contract):
    """One episode, uploaded as `episodes/<show>/<episode>.json`."""

    title: Annotated[Line, Field(max_length=200)]
    published: Published
    duration: Duration
    summary: Annotated[PlainText, Field(max_length=4000)]
    audio: Audio
    transcript: Annotated[PlainText, Field(description="paragraphs separated by blank lines")] | None = None
    guid: Annotated[Line, Field(max_length=255)] | None = None
    episode_number: Ordinal | None = None
    season: Ordinal | None = None
    explicit: bool | None = None
    image: HttpsUrl | None = None
    keywords: Annotated[tuple[Keyword, ...], Field(max_length=50)] = ()
    # v2
    notes: Annotated[PlainText, Field(max_length=20_000, description="CommonMark")] | None = since_v2(None)
    episode_type: EpisodeType = since_v2("full")
    chapters: Chapters | None = since_v2(None)
    persons: Persons | None = since_v2(None)
    soundbites: Soundbites | None = since_v2(None)
    location: Location | None = since_v2(None)
    license: License | None = since_v2(None)
    alternate_enclosures: AlternateEnclosures | None = since_v2(None)
    block: bool = since_v2(False)

    # Checks against the duration, which is validated before them since it is declared before them. When
    # it is bad, they are skipped: there is nothing to measure against, and the duration is reported.
    @field_validator("chapters", mode="after")
    @classmethod
    def _chapters_start_before_the_end(cls, chapters: Chapters | None, info: ValidationInfo) -> Chapters | None:
        if chapters and (duration := info.data.get("duration")) and (faults := starts_past_the_end(chapters, duration)):
            reject(faults)
        return chapters

    @field_validator("soundbites", mode="after")
    @classmethod
    def _soundbites_end_by_the_end(cls, soundbites: Soundbites | None, info: ValidationInfo) -> Soundbites | None:
        if (
            soundbites
            and (duration := info.data.get("duration"))
            and (faults := soundbites_past_the_end(soundbites, duration))
        ):
            reject(faults)
        return soundbites


class Owner(Contract):
    name: Annotated[Line, Field(max_length=255)]
    email: Email


class Show(Contract):
    """A show's document, uploaded as `shows/<show>.json`."""

    title: Annotated[Line, Field(max_length=255)]
    description: Annotated[PlainText, AfterValidator(_description_bytes)]
    categories: Annotated[tuple[Category, ...], Field(min_length=1, max_length=10)]
    author: Annotated[Line, Field(max_length=255)]
    language: Language = "en"
    owner: Owner | None = None
    image: HttpsUrl | None = None
    link: HttpsUrl | None = None
    explicit: bool = False
    overview: Annotated[PlainText, Field(max_length=4000)] | None = None
    guid: PodcastGuid | None = None
    locked: bool | None = None
    # v2
    persons: Persons | None = since_v2(None)
    funding: Annotated[tuple[Funding, ...], Field(min_length=1, max_length=5)] | None = since_v2(None)
    license: License | None = since_v2(None)
    location: Location | None = since_v2(None)
    medium: Medium = since_v2("podcast")
    update_frequency: UpdateFrequency | None = since_v2(None)
    txt: Annotated[tuple[Txt, ...], Field(min_length=1, max_length=10)] | None = since_v2(None)
    podroll: Annotated[tuple[PodrollItem, ...], Field(min_length=1, max_length=50)] | None = since_v2(None)
    type: ShowType = since_v2("episodic")
    complete: bool = since_v2(False)
    block: bool = since_v2(False)
    new_feed_url: HttpsUrl | None = since_v2(None)
    copyright: Annotated[Line, Field(max_length=500)] | None = since_v2(None)


def parse_episode(body: bytes) -> Episode:
    return _parse(Episode, body)


def transcript_of(body: bytes) -> str | None:
    """The transcript of an episode document that `parse_episode` accepted, read again without checking
    the rest: the JSON string as the model keeps it, in Normalization Form C. A render reads each
    transcript again when it writes it, rather than hold every one of them."""
    text = json.loads(body).get("transcript")
    return None if text is None else nfc(text)


def parse_show(body: bytes) -> Show:
    return _parse(Show, body)


def _parse[Model: Contract](model: type[Model], body: bytes) -> Model:
    if len(body) > MAX_DOCUMENT_BYTES:
        raise ContractError([Problem(DOCUMENT, f"is larger than {MAX_DOCUMENT_BYTES} bytes (1 MiB)")])
    if body.startswith(_BOM):
        raise ContractError([Problem(DOCUMENT, "starts with a byte-order mark; save it as UTF-8 without BOM")])
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = Problem(DOCUMENT, f"is not UTF-8: byte 0x{body[error.start]:02x} at offset {error.start}")
        raise ContractError([problem]) from None
    if repeated := _repeated_keys(text):
        raise ContractError([Problem(key, "appears more than once in one object") for key in repeated])
    try:
        return model.model_validate_json(text)
    except ValidationError as error:
        raise ContractError(problems(error)) from None


class _Object(dict[str, object]):
    """A JSON object as parsed, with the keys it gave more than once."""

    def __init__(self, pairs: list[tuple[str, object]]):
        super().__init__(pairs)
        self.repeated: list[str] = []
        if len(self) < len(pairs):  # the dict kept one value of a repeated key
            keys = [key for key, _value in pairs]
            self.repeated = sorted({key for key in keys if keys.count(key) > 1}, key=keys.index)


class _RepeatedKey(Exception):
    """A JSON object gave a key more than once."""


def _object_of_distinct_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    parsed = dict(pairs)
    if len(parsed) < len(pairs):
        raise _RepeatedKey
    return parsed


def _repeated_keys(text: str) -> list[str]:
    """The dotted paths of keys given twice in one JSON object, which a parser would settle
    silently by keeping the last. A document that repeats none, nearly every one, is parsed once
    with plain dicts; only one that does is parsed again to name them (a third of the time a
    render's reading took for this check)."""
    try:
        json.loads(text, object_pairs_hook=_object_of_distinct_keys)
        return []
    except _RepeatedKey:
        return _repeated_in(json.loads(text, object_pairs_hook=_Object), ())
    except ValueError:  # not JSON: the model's parser names the problem
        return []
    except RecursionError:  # no document of the contract nests anywhere near this deep
        raise ContractError([Problem(DOCUMENT, "nests its arrays or objects too deeply")]) from None


def _repeated_in(value: object, path: tuple[str | int, ...]) -> list[str]:
    found: list[str] = []
    if isinstance(value, _Object):
        found += [".".join(str(part) for part in (*path, key)) for key in value.repeated]
        for key, item in value.items():
            found += _repeated_in(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _repeated_in(item, (*path, index))
    return found


def problems(error: ValidationError) -> list[Problem]:
    """One `Problem` per pydantic error, named by its dotted field path.

    pydantic counts a list's length after dropping its invalid items, so `["Techology"]` would also be
    "too short, not 0"; that count is left out when anything within the list is already reported, an
    item or a field of one (`chapters.0.start`).
    """
    details = error.errors(include_url=False)
    reported_within = {detail["loc"][:end] for detail in details for end in range(len(detail["loc"]))}
    return [
        Problem(".".join(str(part) for part in detail["loc"]) or DOCUMENT, detail["msg"].removeprefix("Value error, "))
        for detail in details
        if not (detail["type"] == "too_short" and detail["loc"] in reported_within)
    ]
