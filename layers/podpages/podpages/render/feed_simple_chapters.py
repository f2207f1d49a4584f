"""An episode's chapters inline in its item, as Podlove Simple Chapters 1.2 (`psc:chapters`), which
Spotify and gPodder read where they read no `podcast:chapters` file.

The `psc` namespace is declared on `psc:chapters` itself, not on the feed's root: a feed with no
chapters then stays byte for byte what it was before chapters existed.
"""

from typing import Any

from feedgen.util import xml_elem

from podpages.contract.chapters import Chapter
from podpages.durations import timestamp

PSC_NS = "http://podlove.org/simple-chapters"
PSC_VERSION = "1.2"


def simple_chapters(parent: Any, chapters: tuple[Chapter, ...]) -> None:
    node = xml_elem(f"{{{PSC_NS}}}chapters", parent, attrib={"version": PSC_VERSION}, nsmap={"psc": PSC_NS})
    for chapter in chapters:
        # RFC 2326's normal play time, in full; the attributes given at once, as quick as the element alone
        point = {"start": timestamp(round(chapter.start * 1000)), "title": chapter.title}
        if chapter.url:
            point["href"] = chapter.url
        if chapter.image:
            point["image"] = chapter.image
        xml_elem(f"{{{PSC_NS}}}chapter", node, attrib=point)
