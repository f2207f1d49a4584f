"""An episode's chapters as the podcast namespace's JSON chapters file, version 1.2.0: what
`podcast:chapters` links, and what apps load to show a chapter list with its links and artwork.

The file holds the chapters alone, not the episode's or the show's titles, so that it changes only
when the chapters do and a publish writes it only then.
"""

import json
from typing import Any

from podpages import site_paths
from podpages.catalog.model import CatalogEntry
from podpages.contract.chapters import Chapter
from podpages.durations import json_seconds
from podpages.render import site_objects
from podpages.render.site_objects import SiteObject

JSON_CHAPTERS_VERSION = "1.2.0"


def chapters_file(show: str, entry: CatalogEntry) -> SiteObject:
    document = {
        "version": JSON_CHAPTERS_VERSION,
        "chapters": [_chapter(chapter) for chapter in entry.chapters()],
    }
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    return site_objects.json_chapters(site_paths.chapters(show, entry.slug), text)


def _chapter(chapter: Chapter) -> dict[str, Any]:
    """The format's names: `startTime` in seconds, `img`; `toc` only where it is false, its default being true."""
    data: dict[str, Any] = {"startTime": json_seconds(chapter.start), "title": chapter.title}
    if chapter.image:
        data["img"] = chapter.image
    if chapter.url:
        data["url"] = chapter.url
    if not chapter.toc:
        data["toc"] = False
    return data
