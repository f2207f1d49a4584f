"""The catalog as stored at `catalog/<show>.json`: its version, and the fields its light readers use.

`Catalog` (in `catalog.model`) writes it. The nearby index and the rebuild requests read it with
the standard library alone, through `load_catalog`, so that the nearby function's cold start
never loads pydantic; a test holds the model's output to these types.
"""

import hashlib
import json
import re
from typing import Any, NamedTuple, TypedDict

from podpages.errors import PodpagesError

CATALOG_VERSION = 1
# From this version of the catalog's index (`catalog.layout`), its first line is the show's nearby
# index (`catalog.nearby_index`), and names that version; before it, the nearby index was an object
# of its own, `catalog/<show>.nearby.json`, of the versions below.
NEARBY_LINE_SINCE = 8
NEARBY_INDEX_VERSION = 3  # of `catalog/<show>.nearby.json`, as sites published before version 8 have
NEARBY_PART_VERSION = 2  # of a frozen page's part of it
PARTS_NEARBY_INDEX = 2  # a nearby index whose parts are objects of their own, as sites published before v3 have
WHOLE_NEARBY_INDEX = 1  # a nearby index of every row in one object, as sites published before its parts have


class StoredEpisode(TypedDict):
    title: str
    published: str  # RFC 3339, as uploaded
    duration: str  # ISO 8601


class StoredEntry(TypedDict):
    slug: str
    episode: StoredEpisode


class StoredDocument(TypedDict):
    title: str


class StoredCatalog(TypedDict):
    version: int
    show: str
    document: StoredDocument | None  # None until the show's document is uploaded
    episodes: list[StoredEntry]  # in publish order, oldest first


class UnknownCatalogVersion(PodpagesError):
    """A catalog written by another version of podpages than this one reads."""


# One episode in the nearby index: slug, title, published (RFC 3339, UTC), duration in seconds.
type StoredNearbyEpisode = tuple[str, str, str, float]


class NearbyPage(NamedTuple):
    """A frozen page as the nearby index names it: its slugs' hashes, its part's digest, and where
    the part is: the first `head` bytes of the page's object, which the page's digest `page` names;
    where `head` is 0 (an index of version 2), an object of its own."""

    hashes: str
    digest: str
    page: str = ""
    head: int = 0


class StoredNearbyIndex(TypedDict):
    version: int
    show: str
    title: str
    size: int  # episodes to a frozen page: the reader counts each page by its slugs' hashes instead
    pages: list[NearbyPage]  # each frozen page, oldest first
    episodes: list[StoredNearbyEpisode]  # the episodes after the frozen pages: the head


class StoredNearbyPart(TypedDict):
    version: int
    show: str
    page: int
    episodes: list[StoredNearbyEpisode]


SLUG_HASH_DIGITS = 6


def slug_hash(slug: str) -> str:
    """Six hex digits of the slug's BLAKE2b. The nearby index keeps them for each frozen page, so that
    the page that may hold a slug is found without reading the others; one in 16 million collides."""
    return hashlib.blake2b(slug.encode(), digest_size=SLUG_HASH_DIGITS // 2).hexdigest()


def holds_hash(hashes: str, wanted: str) -> bool:
    """Whether `hashes`, slug hashes end to end, holds `wanted` at one of its own places."""
    return bool(hash_places(hashes, wanted))


def hash_places(hashes: str, wanted: str) -> list[int]:
    """The places, counted in hashes, where `hashes`, slug hashes end to end, holds `wanted`."""
    places = []
    found = hashes.find(wanted)
    while found != -1:
        if not found % SLUG_HASH_DIGITS:
            places.append(found // SLUG_HASH_DIGITS)
        found = hashes.find(wanted, found + 1)
    return places


def load_nearby_index(body: bytes) -> StoredNearbyIndex:
    """The index, from the catalog index's first line (version 8 on) or an object of its own: one
    written whole (version 1) read as an index of no frozen pages, and one whose parts are objects
    of their own (version 2) as one that says so."""
    stored = json.loads(body)
    version = stored.get("version")
    if version == WHOLE_NEARBY_INDEX:
        stored |= {"version": NEARBY_INDEX_VERSION, "size": 0, "pages": []}
    elif version == PARTS_NEARBY_INDEX or (isinstance(version, int) and version >= NEARBY_LINE_SINCE):
        stored |= {"version": NEARBY_INDEX_VERSION}
    index: StoredNearbyIndex = _checked(stored, NEARBY_INDEX_VERSION, "nearby index")
    index["pages"] = [NearbyPage(*page) for page in index["pages"]]
    return index


def load_nearby_part(body: bytes) -> StoredNearbyPart:
    part: StoredNearbyPart = _of_version(body, NEARBY_PART_VERSION, "nearby index part")
    return part


def page_key_name(page: int, digest: str) -> str:
    """A frozen page's object, in the show's folder beside its index."""
    return f"page-{page}-{digest}.json"


def named_by(index: StoredNearbyIndex) -> set[str]:
    """The objects in the show's folder that a nearby index names (`part_holder_name`)."""
    return {part_holder_name(number, page) for number, page in enumerate(index["pages"], 1)}


def part_holder_name(number: int, page: NearbyPage) -> str:
    """The object in the show's folder that holds frozen page `number`'s part of the nearby index:
    the page's own, at its head; or the part's own, as a nearby index of version 2 names it."""
    return page_key_name(number, page.page) if page.head else part_key_name(number, page.digest)


def part_key_name(page: int, digest: str) -> str:
    """A frozen page's part of the nearby index, as an object of its own (a nearby index of version 2)."""
    return f"nearby-{page}-{digest}.json"


LEADING_VERSION = re.compile(rb'\s*\{\s*"version"\s*:\s*(\d+)')


def leading_version(body: bytes) -> int | None:
    """The version a stored catalog names first, as podpages writes them, read without parsing the rest."""
    found = LEADING_VERSION.match(body)
    return int(found.group(1)) if found else None


def load_catalog(body: bytes) -> StoredCatalog:
    catalog: StoredCatalog = _of_version(body, CATALOG_VERSION, "catalog")
    return catalog


def _of_version(body: bytes, version: int, what: str) -> Any:
    """The stored JSON, if this podpages wrote it in the version it reads."""
    return _checked(json.loads(body), version, what)


def _checked(stored: Any, version: int, what: str) -> Any:
    if stored.get("version") != version:
        found = stored.get("version")
        raise UnknownCatalogVersion(f"{what} of {stored.get('show')!r} has version {found!r}; this reads {version}")
    return stored
