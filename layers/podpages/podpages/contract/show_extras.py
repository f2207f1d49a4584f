"""What v2 adds to a show beyond persons, location and licence: its type and medium, how to fund it,
how often it comes out, the shows it recommends, its copyright, and the podcast namespace's free-form
`podcast:txt` records."""

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema

from podpages.contract.fields import Contract, HttpsUrl, PodcastGuid
from podpages.contract.plain_text import Line

# What the feed holds, as the podcast namespace's `podcast:medium` names it.
Medium = Literal["podcast", "music", "video", "film", "audiobook", "newsletter", "blog"]
# Apple's `itunes:type`: episodic shows are listened to newest first, serial ones in order, from the first.
ShowType = Literal["episodic", "serial"]
MAX_FUNDING = 5
MAX_TXT = 10
MAX_PODROLL = 50


class Funding(Contract):
    """Where listeners can support the show, and the words for the link: `podcast:funding`."""

    url: HttpsUrl
    text: Annotated[Line, Field(max_length=128)]


# An RFC 5545 recurrence rule (section 3.3.10), checked lightly: its parts are known, each is given once,
# FREQ is among them, and UNTIL and COUNT are not both.
_RULE_PART = re.compile(r"([A-Za-z]+)=([A-Za-z0-9,+.:-]+)")
_RULE_PARTS = frozenset(
    {"FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY", "BYYEARDAY"}
    | {"BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST"}
)
_FREQUENCIES = ("SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY")
RRULE_PATTERN = r"^[A-Za-z]+=[A-Za-z0-9,+.:-]+(?:;[A-Za-z]+=[A-Za-z0-9,+.:-]+)*$"


def _rrule(value: str) -> str:
    named: dict[str, str] = {}
    for part in value.split(";"):
        found = _RULE_PART.fullmatch(part)
        if not found:
            raise ValueError(f"must be NAME=VALUE parts joined by ';', such as FREQ=WEEKLY;BYDAY=MO: not {part!r}")
        name = found[1].upper()
        if name not in _RULE_PARTS:
            raise ValueError(f"{found[1]!r} is not a part of an RFC 5545 recurrence rule")
        if name in named:
            raise ValueError(f"gives {name} more than once")
        named[name] = found[2].upper()
    if "FREQ" not in named:
        raise ValueError("must give FREQ, such as FREQ=WEEKLY")
    if named["FREQ"] not in _FREQUENCIES:
        raise ValueError(f"FREQ must be one of {', '.join(_FREQUENCIES)}")
    if "UNTIL" in named and "COUNT" in named:
        raise ValueError("may give UNTIL or COUNT, not both")
    return value


RecurrenceRule = Annotated[
    Line,
    Field(max_length=500),
    AfterValidator(_rrule),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": RRULE_PATTERN,
            "maxLength": 500,
            "description": "an RFC 5545 recurrence rule",
            "examples": ["FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"],
        }
    ),
]


class UpdateFrequency(Contract):
    """How often the show comes out: `podcast:updateFrequency`."""

    text: Annotated[Line, Field(max_length=128)]  # for people: "Every other Monday"
    rrule: RecurrenceRule | None = None  # for machines: FREQ=WEEKLY;INTERVAL=2;BYDAY=MO
    complete: bool = False  # no more episodes are planned


class Txt(Contract):
    """A free-form record, such as a platform's proof of ownership: `podcast:txt`."""

    value: Annotated[Line, Field(max_length=4000)]
    purpose: Annotated[Line, Field(max_length=128)] | None = None  # such as "verify"


class PodrollItem(Contract):
    """Another show this one recommends: a `podcast:remoteItem` of `podcast:podroll`."""

    feed_guid: PodcastGuid  # that show's podcast:guid
    feed_url: HttpsUrl | None = None
    title: Annotated[Line, Field(max_length=255)] | None = None
