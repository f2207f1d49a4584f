"""The catalog as stored at `catalog/<show>.json`: its version, and the fields its light readers use.

`Catalog` (in `catalog.model`) writes it. The nearby index and the rebuild requests read it with
the standard library alone, through `load_catalog`, so that the nearby function's cold start
never loads pydantic; a test holds the model's output to these types.
"""

import json
from typing import Any, TypedDict

from podpages.errors import PodpagesError

CATALOG_VERSION = 1
NEARBY_INDEX_VERSION = 1  # of `catalog/<show>.nearby.json` (catalog.nearby_index)


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


class StoredNearbyIndex(TypedDict):
    version: int
    show: str
    title: str
    episodes: list[StoredNearbyEpisode]


def load_nearby_index(body: bytes) -> StoredNearbyIndex:
    index: StoredNearbyIndex = _of_version(body, NEARBY_INDEX_VERSION, "nearby index")
    return index


def load_catalog(body: bytes) -> StoredCatalog:
    catalog: StoredCatalog = _of_version(body, CATALOG_VERSION, "catalog")
    return catalog


def _of_version(body: bytes, version: int, what: str) -> Any:
    """The stored JSON, if this podpages wrote it in the version it reads."""
    stored = json.loads(body)
    if stored.get("version") != version:
        found = stored.get("version")
        raise UnknownCatalogVersion(f"{what} of {stored.get('show')!r} has version {found!r}; this reads {version}")
    return stored
