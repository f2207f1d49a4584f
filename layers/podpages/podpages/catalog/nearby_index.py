"""A show's nearby index: the little of its catalog that the nearby API serves (each episode's slug,
title, publish time and duration, in publish order), stored at `catalog/<show>.nearby.json` beside
the catalog. The nearby function reads it instead of the whole catalog, so its first request costs a
small, bounded read however many fields each episode carries.

It is written with the show's listings, before the feed: while the feed is current, so is the index.
"""

import json

from podpages.catalog.model import Catalog
from podpages.catalog.stored import NEARBY_INDEX_VERSION
from podpages.durations import json_seconds
from podpages.moments import rfc3339


def nearby_index(catalog: Catalog) -> bytes:
    """The index as stored: `[slug, title, published, seconds]` for each episode (published in RFC 3339
    and UTC, as the API answers; the duration in seconds, from which the reader writes its ISO 8601
    form), with no white space to spare."""
    document = catalog.document
    index = {
        "version": NEARBY_INDEX_VERSION,
        "show": catalog.show,
        "title": document.title if document else catalog.show,  # a show without its document is titled by its slug
        "episodes": [
            [
                entry.slug,
                entry.episode.title,
                rfc3339(entry.published),
                json_seconds(entry.episode.duration.total_seconds()),
            ]
            for entry in catalog.episodes
        ],
    }
    return json.dumps(index, ensure_ascii=False, separators=(",", ":")).encode()
