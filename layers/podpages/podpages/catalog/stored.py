"""The catalog as stored at `catalog/<show>.json`: its version, and the fields its light readers use.

`Catalog` (in `catalog.model`) writes it. The nearby index and the rebuild requests read it with
the standard library alone, through `load_catalog`, so that the nearby function's cold start
never loads pydantic; a test holds the model's output to these types.
"""

import json
from typing import TypedDict

from podpages.errors import PodpagesError

CATALOG_VERSION = 1


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


def load_catalog(body: bytes) -> StoredCatalog:
    catalog: StoredCatalog = json.loads(body)
    if catalog.get("version") != CATALOG_VERSION:
        found = catalog.get("version")
        raise UnknownCatalogVersion(
            f"catalog of {catalog.get('show')!r} has version {found!r}; this reads {CATALOG_VERSION}"
        )
    return catalog
