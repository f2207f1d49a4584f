"""What every model of the contract is built from: the strict base model, the field types more than one
document uses, and the way a check that spans fields names the one field it faults.

A v2 field is declared with `since_v2(default)`: its default is left out when a model is serialised, so
that a document which uses no v2 field serialises (in the catalog, say) byte for byte as it did in v1.
"""

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Annotated, Any, NoReturn
from urllib.parse import urlsplit

from pydantic import AfterValidator, ConfigDict, Field, ValidationError, WithJsonSchema
from pydantic_core import InitErrorDetails, PydanticCustomError

from podpages.contract.field_sets import SharedFieldSets
from podpages.contract.plain_text import check_characters, nfc

# A field's place in a document, as pydantic gives it: ("chapters", 3, "start") is `chapters.3.start`.
type FieldPath = tuple[str | int, ...]


class Contract(SharedFieldSets):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def since_v2(default: object) -> Any:
    """The default of a field that v2 added, which serialising leaves out."""
    return Field(default=default, exclude_if=lambda value: value == default)


def reject(faults: Sequence[tuple[FieldPath, str, object]]) -> NoReturn:
    """Fail a check that spans fields, naming each field at fault by its path below the model or list
    the check belongs to: pydantic puts the path of that model or list in front. Each fault is
    (path, message, the value at fault)."""
    # The message is the template's context, not the template, so that braces in a value it quotes stay.
    raise ValidationError.from_exception_data(
        "contract",
        [
            InitErrorDetails(
                type=PydanticCustomError("contract", "{reason}", {"reason": message}), loc=path, input=value
            )
            for path, message, value in faults
        ],
    )


# What `str.isspace` calls white space: `re` tests each character with the same function.
_WHITE_SPACE = re.compile(r"\s")


# Each publish reads its show's head back, 1,000 entries and more, and their URLs took a tenth of its
# CPU to check again: a warm process remembers the URLs that passed (one that fails raises anew).
@lru_cache(maxsize=8192)
def _https_url(value: str) -> str:
    check_characters(value)  # pages and feeds print it: XML 1.0 cannot carry a control character
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.hostname:
        raise ValueError("must be an https:// URL")
    if _WHITE_SPACE.search(value):
        raise ValueError("must not contain white space")
    return value


def _no_negative_zero(value: float) -> float:
    return value + 0.0  # -0.0 + 0.0 is 0.0: one zero, so that no page or feed prints "-0"


HttpsUrl = Annotated[
    str,
    Field(max_length=2048),
    AfterValidator(nfc),
    AfterValidator(_https_url),
    WithJsonSchema({"type": "string", "format": "uri", "pattern": "^https://", "maxLength": 2048}),
]
PodcastGuid = Annotated[
    str, Field(pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
]
# A moment in, or a stretch of, an episode's audio, in seconds: a JSON number, whole or not. Strict mode
# takes an integer as a number, and never true or false.
Seconds = Annotated[
    float,
    Field(ge=0, allow_inf_nan=False, description="seconds from the start of the audio"),
    AfterValidator(_no_negative_zero),
]


def seconds_text(value: float) -> str:
    """Seconds as a message prints them: `245`, `12.5`, never `245.0` or a rounded `12345.7`."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
