"""What a nearby request asks for, read from its path, its query string and its Accept header.
Every problem is named by its field, all of them at once."""

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from podpages.contract.source_keys import SLUG
from podpages.errors import InvalidRequest, Problem

MAX_LIMIT = 50
FORMATS = ("json", "html")


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
            if not SLUG.match(slug)
        ]
        limit = _limit(query.get("limit"), default_limit, problems)
        format = query.get("format") or _preferred_format(accept)
        if format not in FORMATS:
            problems.append(Problem("format", f"must be one of {', '.join(FORMATS)}"))
        if problems:
            raise InvalidRequest(problems)
        return cls(show, episode, limit, format)

    def etag(self, revision: str, site_url: str) -> str:
        """A strong validator: it changes with the catalog's revision and with anything the request chose."""
        key = "\n".join((revision, site_url, self.show, self.episode, str(self.limit), self.format))
        return f'"{hashlib.blake2b(key.encode(), digest_size=16).hexdigest()}"'


def _limit(raw: str | None, default: int, problems: list[Problem]) -> int:
    if raw is None:
        return default
    if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_LIMIT:
        return int(raw)
    problems.append(Problem("limit", f"must be a whole number from 1 to {MAX_LIMIT}"))
    return default


def _preferred_format(accept: str | None) -> str:
    """HTML when the Accept header ranks text/html above application/json; JSON otherwise."""
    quality: dict[str, float] = {}
    for media_range in (accept or "").lower().split(","):
        media, *parameters = (part.strip() for part in media_range.split(";"))
        q = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        quality[media] = max(q, quality.get(media, 0.0))
    return "html" if quality.get("text/html", 0.0) > quality.get("application/json", 0.0) else "json"
