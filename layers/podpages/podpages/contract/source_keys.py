"""Where uploads live in the source bucket, and the slugs their keys carry."""

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from podpages.errors import ContractError, Problem

SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$")
YEAR_SLUG = re.compile(r"^[0-9]{4}$")
# Show slugs that would collide with paths the site itself serves.
RESERVED_SHOW_SLUGS = frozenset({"api"})

EPISODES_PREFIX = "episodes/"
SHOWS_PREFIX = "shows/"
CATALOG_PREFIX = "catalog/"
ERRORS_PREFIX = "errors/"
LEASES_PREFIX = "locks/"
METADATA_SUFFIX = ".json"
# Companion transcripts, beside an episode's JSON: `episodes/<show>/<episode>.vtt` or `.srt`.
COMPANION_SUFFIXES = (".vtt", ".srt")
MAX_DOCUMENT_BYTES = 1024 * 1024  # the most an upload may hold (contract v1)
MAX_COMPANION_BYTES = 5 * 1024 * 1024  # the most a companion transcript may hold
CompanionFormat = Literal["vtt", "srt"]


class Kind(StrEnum):
    EPISODE = "episode"
    SHOW = "show"
    TRANSCRIPT = "transcript"  # a companion transcript of an episode


@dataclass(frozen=True)
class SourceKey:
    """A parsed upload key: `episodes/<show>/<episode>.json`, its companion transcript
    `episodes/<show>/<episode>.vtt` or `.srt`, or `shows/<show>.json`."""

    kind: Kind
    show: str
    episode: str | None = None
    suffix: str = METADATA_SUFFIX

    @property
    def key(self) -> str:
        if self.kind is Kind.SHOW:
            return f"{SHOWS_PREFIX}{self.show}{self.suffix}"
        return f"{EPISODES_PREFIX}{self.show}/{self.episode}{self.suffix}"

    @property
    def max_bytes(self) -> int:
        """The most this upload may hold: 5 MiB for a companion transcript, 1 MiB for JSON."""
        return MAX_COMPANION_BYTES if self.kind is Kind.TRANSCRIPT else MAX_DOCUMENT_BYTES

    @property
    def format(self) -> CompanionFormat:
        """A companion's format, named by its suffix."""
        return "vtt" if self.suffix == ".vtt" else "srt"

    @property
    def episode_slug(self) -> str:
        """The slug of the episode an episode key names."""
        if self.episode is None:
            raise ValueError(f"{self.key} names a show, not an episode")
        return self.episode


def is_upload_key(key: str) -> bool:
    """True for keys under the prefixes publishers upload to, valid or not."""
    if key.startswith(EPISODES_PREFIX):
        return key.endswith((METADATA_SUFFIX, *COMPANION_SUFFIXES))
    return key.endswith(METADATA_SUFFIX) and key.startswith(SHOWS_PREFIX)


def parse_source_key(key: str) -> SourceKey:
    """Read the show and episode slugs from an upload key, or say what is wrong with it."""
    if not is_upload_key(key):
        expected = f"{EPISODES_PREFIX}<show>/<episode>.json (or .vtt, .srt) or {SHOWS_PREFIX}<show>.json"
        raise ContractError([Problem("key", f"expected {expected}")])
    if key.startswith(SHOWS_PREFIX):
        show = key.removeprefix(SHOWS_PREFIX).removesuffix(METADATA_SUFFIX)
        _check_show_slug(show)
        return SourceKey(Kind.SHOW, show)
    suffix = key[key.rindex(".") :]
    parts = key.removeprefix(EPISODES_PREFIX).removesuffix(suffix).split("/")
    if len(parts) != 2:
        raise ContractError([Problem("key", f"expected {EPISODES_PREFIX}<show>/<episode>{suffix}")])
    show, episode = parts
    _check_show_slug(show)
    _check_slug(episode, "episode slug")
    if YEAR_SLUG.fullmatch(episode):
        raise ContractError([Problem("key", f"episode slug {episode!r} is reserved for the year archive page")])
    return SourceKey(Kind.EPISODE if suffix == METADATA_SUFFIX else Kind.TRANSCRIPT, show, episode, suffix)


def _check_show_slug(show: str) -> None:
    _check_slug(show, "show slug")
    if show in RESERVED_SHOW_SLUGS:
        raise ContractError([Problem("key", f"show slug {show!r} is reserved for the site's own paths")])


def is_slug(text: str) -> bool:
    """Whether `text` is a slug, whole: a trailing newline is not let through as `$` would."""
    return SLUG.fullmatch(text) is not None


def _check_slug(slug: str, what: str) -> None:
    if not is_slug(slug):
        raise ContractError([Problem("key", f"{what} {slug!r} must match {SLUG.pattern}")])
