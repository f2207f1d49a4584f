"""A show's nearby index: the little of its catalog that the nearby API serves (each episode's slug,
title, publish time and duration, in publish order). The nearby function reads it instead of the
whole catalog, so its first request costs a small, bounded read however many fields each episode
carries, and however many episodes the show has.

It is cut along the show's frozen pages (`feed_archives`). The first line of the catalog's index,
`catalog/<show>.json` (`catalog.layout`), holds it: the rows of the episodes after them, and for
each frozen page the hashes of its slugs (`stored.slug_hash`), the digest of its part, which holds
its rows, and where that part is: the first line of the page's own object, which the reader asks
for by range, as it asks for the index's first line. So the commit that changes the catalog writes
the nearby index in the same request, and a publish that changes a frozen page writes its part
with it; a reader holding an older index never reads a newer part by mistake, since the page's
object is named by its content, and finds a part gone once a newer index no longer names it.
"""

import hashlib
import json
from collections.abc import Sequence

from podpages.catalog.feed_archives import archive_size, head
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.catalog.page_summary import PageSummary
from podpages.catalog.stored import NEARBY_PART_VERSION, NearbyPage, StoredNearbyEpisode
from podpages.durations import json_seconds
from podpages.moments import rfc3339

DIGEST_DIGITS = 16


def nearby_index(catalog: Catalog, feed_max_items: int, pages: Sequence[PageSummary], version: int) -> bytes:
    """The index as stored, the first line of a catalog index of `version`, given its summary of
    each frozen page: for each, its slugs' hashes, its part's digest, its own digest and its part's
    length; `[slug, title, published, seconds]` for each episode of the head (published in RFC 3339
    and UTC, as the API answers; the duration in seconds, from which the reader writes its ISO 8601
    form), with no white space to spare."""
    document = catalog.document
    index = {
        "version": version,
        "show": catalog.show,
        "title": document.title if document else catalog.show,  # a show without its document is titled by its slug
        "size": archive_size(feed_max_items),
        "pages": nearby_pages(pages),
        "episodes": _rows(head(catalog, feed_max_items)),
    }
    return _dumps(index)


def nearby_pages(pages: Sequence[PageSummary]) -> list[NearbyPage]:
    """The frozen pages a catalog index summarizes, as the nearby index names them."""
    return [NearbyPage(page.slugs, page.nearby, page.digest, page.nearby_bytes) for page in pages]


def nearby_part(show: str, page: int, entries: Sequence[CatalogEntry]) -> bytes:
    """The part of frozen page `page`, which holds `entries`: their rows."""
    rows = _rows(entries)
    return _dumps({"version": NEARBY_PART_VERSION, "show": show, "page": page, "episodes": rows})


def part_digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:DIGEST_DIGITS]


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
