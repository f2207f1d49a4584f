"""A show's nearby index: the little of its catalog that the nearby API serves (each episode's slug,
title, publish time and duration, in publish order). The nearby function reads it instead of the
whole catalog, so its first request costs a small, bounded read however many fields each episode
carries, and however many episodes the show has.

It is cut along the show's frozen pages (`feed_archives`). `catalog/<show>.nearby.json` holds the
rows of the episodes after them, and for each frozen page the hashes of its slugs (`stored.slug_hash`)
and the digest of its part, `catalog/<show>/nearby-<page>-<digest>.json`, which holds its rows. A part
is named by its content, so a reader holding an older index never reads a newer part by mistake, and a
publish writes a frozen page's part only when that page changes.

It is written with the show's listings, before the feed: while the feed is current, so is the index.
"""

import hashlib
import json
from collections.abc import Sequence

from podpages.catalog.feed_archives import archive_bounds, archive_entries, archive_size, frozen_pages, head
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.stored import NEARBY_INDEX_VERSION, StoredNearbyEpisode, slug_hash
from podpages.durations import json_seconds
from podpages.moments import rfc3339

DIGEST_DIGITS = 16


def nearby_index(catalog: Catalog, feed_max_items: int, digests: Sequence[str]) -> bytes:
    """The index as stored, given the digest of each frozen page's part: `[slug, title, published,
    seconds]` for each episode of the head (published in RFC 3339 and UTC, as the API answers; the
    duration in seconds, from which the reader writes its ISO 8601 form), with no white space to spare."""
    document, bounds = catalog.document, archive_bounds(catalog, feed_max_items)
    pages = [[_slug_hashes(catalog, bounds, page), digest] for page, digest in enumerate(digests, 1)]
    index = {
        "version": NEARBY_INDEX_VERSION,
        "show": catalog.show,
        "title": document.title if document else catalog.show,  # a show without its document is titled by its slug
        "size": archive_size(feed_max_items),
        "pages": pages,
        "episodes": _rows(head(catalog, feed_max_items)),
    }
    return _dumps(index)


def nearby_part(show: str, page: int, entries: Sequence[CatalogEntry]) -> bytes:
    """The part of frozen page `page`, which holds `entries`: their rows."""
    rows = _rows(entries)
    return _dumps({"version": NEARBY_INDEX_VERSION, "show": show, "page": page, "episodes": rows})


def nearby_digests(catalog: Catalog, feed_max_items: int) -> list[str]:
    """The digest of each frozen page's part: kept in the catalog's summary of each page it does not
    hold (`catalog.layout` writes the part with the page), taken from the part of each page it holds."""
    bounds = archive_bounds(catalog, feed_max_items)
    return [
        unheld.nearby
        if (unheld := catalog.unheld(page))
        else part_digest(nearby_part(catalog.show, page, archive_entries(catalog, bounds, page)))
        for page in range(1, frozen_pages(catalog, feed_max_items) + 1)
    ]


def part_digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:DIGEST_DIGITS]


def _slug_hashes(catalog: Catalog, bounds: PageBounds, page: int) -> str:
    """The hashes of a frozen page's slugs: the catalog keeps them for the pages it does not hold."""
    if unheld := catalog.unheld(page):
        return unheld.slugs
    return "".join(slug_hash(entry.slug) for entry in archive_entries(catalog, bounds, page))


def _rows(entries: Sequence[CatalogEntry]) -> list[StoredNearbyEpisode]:
    return [
        (
            entry.slug,
            entry.episode.title,
            rfc3339(entry.published),
            json_seconds(entry.episode.duration.total_seconds()),
        )
        for entry in entries
    ]


def _dumps(document: object) -> bytes:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
