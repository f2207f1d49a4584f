"""What a nearby request asks for, read from its path, its query string and its Accept header.
Every problem is named by its field, all of them at once."""

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from podpages.contract.source_keys import is_slug
from podpages.errors import InvalidRequest, Problem

MAX_LIMIT = 50
# A limit has no more digits than MAX_LIMIT. That is checked before int(), which refuses a string
# of over 4,300 digits with ValueError: a 500, not the 400 it is.
LIMIT_DIGITS = len(str(MAX_LIMIT))
FORMATS = ("json", "html")
# RFC 9110's weight: 0 to 1 with at most three decimals. The same grammar in NearbyFormatFunction
# (template.yaml) keeps CloudFront's choice of format and this one the same.
QVALUE = re.compile(r"0(\.[0-9]{0,3})?|1(\.0{0,3})?")
OWS = " \t"  # RFC 9110's optional whitespace, around each part of the header


@dataclass(frozen=True)
class NearbyRequest:
    show: str
    episode: str
    limit: int
    format: str  # one of FORMATS

    @classmethod
    def parse(
        cls, show: str, episode: str, query: Mapping[str, str], accept: str | None, default_limit: int
    ) -> "NearbyRequest":
        problems = [
            Problem(field, f"{slug!r} is not a slug: use lowercase letters, digits and inner hyphens")
            for field, slug in (("show", show), ("episode", episode))
            if not is_slug(slug)
        ]
        limit = _limit(query.get("limit"), default_limit, problems)
        format = query.get("format") or preferred_format(accept)
        if format not in FORMATS:
            problems.append(Problem("format", f"must be one of {', '.join(FORMATS)}"))
        if problems:
            raise InvalidRequest(problems)
        return cls(show, episode, limit, format)

    def etag(self, body: str) -> str:
        """A strong validator: the digest of the response's format and body, which change with
        everything the request chose and with what of the catalog the listing shows, and only
        with that. A commit of the show that leaves the listing as it was (a new summary, an
        episode published far from this one) leaves its ETag, and a revalidation gets a 304."""
        digest = hashlib.blake2b(self.format.encode(), digest_size=16)
        digest.update(body.encode(errors="surrogatepass"))
        return f'"{digest.hexdigest()}"'


def _limit(raw: str | None, default: int, problems: list[Problem]) -> int:
    if raw is None:
        return default
    if len(raw) <= LIMIT_DIGITS and raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_LIMIT:
        return int(raw)
    problems.append(Problem("limit", f"must be a whole number from 1 to {MAX_LIMIT}"))
    return default


def preferred_format(accept: str | None) -> str:
    """HTML when the Accept header ranks text/html above application/json; JSON otherwise.

    CloudFront's NearbyFormatFunction applies this very rule at the edge, so that the cache is keyed
    on the format, not on every browser's Accept header: keep the two in step."""
    quality: dict[str, float] = {}
    for media_range in (accept or "").lower().split(","):
        media, *parameters = (part.strip(OWS) for part in media_range.split(";"))
        q = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip(OWS) == "q":
                q = _weight(value.strip(OWS))
        quality[media] = max(q, quality.get(media, 0.0))
    return "html" if quality.get("text/html", 0.0) > quality.get("application/json", 0.0) else "json"


def _weight(value: str) -> float:
    """A malformed weight counts as 0: that media range is not wanted."""
    return float(value) if QVALUE.fullmatch(value) else 0.0
