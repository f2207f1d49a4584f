"""The metadata contract, v1: what a publisher may upload, checked field by field.

`episodes/<show>/<episode>.json` holds an `Episode`, `shows/<show>.json` a `Show`.
Unknown fields are rejected, so that a typo never passes silently.
"""

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    WithJsonSchema,
)

from podpages.contract import apple_categories
from podpages.contract.plain_text import Line, PlainText, check_characters, nfc
from podpages.contract.source_keys import MAX_DOCUMENT_BYTES
from podpages.durations import iso_duration, parse_duration
from podpages.errors import ContractError, Problem

CONTRACT_VERSION = 1
DOCUMENT = "document"  # the field name for problems with the whole file
_BOM = b"\xef\xbb\xbf"


def _https_url(value: str) -> str:
    check_characters(value)  # pages and feeds print it: XML 1.0 cannot carry a control character
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError("must be an https:// URL")
    if any(character.isspace() for character in value):
        raise ValueError("must not contain white space")
    return value


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


HttpsUrl = Annotated[
    str,
    Field(max_length=2048),
    AfterValidator(nfc),
    AfterValidator(_https_url),
    WithJsonSchema({"type": "string", "format": "uri", "pattern": "^https://", "maxLength": 2048}),
]
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
PodcastGuid = Annotated[
    str, Field(pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
]
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


class Contract(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


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


def parse_episode(body: bytes) -> Episode:
    return _parse(Episode, body)


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
        keys = [key for key, _value in pairs]
        self.repeated = sorted({key for key in keys if keys.count(key) > 1}, key=keys.index)


def _repeated_keys(text: str) -> list[str]:
    """The dotted paths of keys given twice in one JSON object, which a parser would settle
    silently by keeping the last."""
    try:
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
    "too short, not 0"; that count is left out when an item of the list is already reported.
    """
    details = error.errors(include_url=False)
    reported_items = {detail["loc"][:-1] for detail in details if detail["loc"]}
    return [
        Problem(".".join(str(part) for part in detail["loc"]) or DOCUMENT, detail["msg"].removeprefix("Value error, "))
        for detail in details
        if not (detail["type"] == "too_short" and detail["loc"] in reported_items)
    ]
