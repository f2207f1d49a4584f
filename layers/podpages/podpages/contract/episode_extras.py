"""What v2 adds to an episode beyond chapters, persons and soundbites: its type, as Apple's
`itunes:episodeType` names them, and other encodings or media of it, as the podcast namespace's
`podcast:alternateEnclosure` offers them."""

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema

from podpages.contract.fields import Contract, FieldPath, HttpsUrl, reject
from podpages.contract.plain_text import Line

EpisodeType = Literal["full", "trailer", "bonus"]
MAX_ALTERNATE_ENCLOSURES = 10

MEDIA_TYPE = re.compile(r"^(?:audio|video)/[a-z0-9][a-z0-9.+-]*$")
MEDIA_TYPE_SCHEMA = {"type": "string", "pattern": MEDIA_TYPE.pattern, "maxLength": 100, "examples": ["video/mp4"]}


def _media_type(value: str) -> str:
    if not MEDIA_TYPE.fullmatch(value):
        raise ValueError("must be an audio or video media type such as audio/ogg or video/mp4")
    return value


class AlternateEnclosure(Contract):
    """Another file of the episode: a different bitrate or codec, or a video of it."""

    url: HttpsUrl
    type: Annotated[str, Field(max_length=100), AfterValidator(_media_type), WithJsonSchema(MEDIA_TYPE_SCHEMA)]
    length: Annotated[int, Field(ge=0, lt=10**13, description="size in bytes")]
    bitrate: Annotated[float, Field(gt=0, allow_inf_nan=False, description="bits per second, on average")] | None = None
    title: Annotated[Line, Field(max_length=32)] | None = None
    default: bool = False  # the same media as `audio`, and the one apps should prefer


def _one_default(enclosures: tuple[AlternateEnclosure, ...]) -> tuple[AlternateEnclosure, ...]:
    defaults = [index for index, enclosure in enumerate(enclosures) if enclosure.default]
    faults: list[tuple[FieldPath, str, object]] = [
        ((index, "default"), f"must be false: alternate enclosure {defaults[0]} is already the default", True)
        for index in defaults[1:]
    ]
    if faults:
        reject(faults)
    return enclosures


AlternateEnclosures = Annotated[
    tuple[AlternateEnclosure, ...],
    Field(min_length=1, max_length=MAX_ALTERNATE_ENCLOSURES, description="at most one of them the default"),
    AfterValidator(_one_default),
]
