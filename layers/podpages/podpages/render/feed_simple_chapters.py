"""An episode's chapters inline in its item, as Podlove Simple Chapters 1.2 (`psc:chapters`), which
Spotify and gPodder read where they read no `podcast:chapters` file.

The `psc` namespace is declared on `psc:chapters` itself, not on the feed's root: a feed with no
chapters then stays byte for byte what it was before chapters existed.
"""

from typing import Any

from feedgen.util import xml_elem

from podpages.contract.chapters import Chapter

PSC_NS = "http://podlove.org/simple-chapters"
PSC_VERSION = "1.2"


def simple_chapters(parent: Any, chapters: tuple[Chapter, ...]) -> None:
    node = xml_elem(f"{{{PSC_NS}}}chapters", parent, nsmap={"psc": PSC_NS})
    node.attrib["version"] = PSC_VERSION
    for chapter in chapters:
        point = xml_elem(f"{{{PSC_NS}}}chapter", node)
        point.attrib["start"] = normal_play_time(chapter.start)
        point.attrib["title"] = chapter.title
        if chapter.url:
            point.attrib["href"] = chapter.url
        if chapter.image:
            point.attrib["image"] = chapter.image


def normal_play_time(seconds: float) -> str:
    """RFC 2326's normal play time, as the spec writes it in full: `00:10:10.500`."""
    milliseconds = round(seconds * 1000)
    hours, rest = divmod(milliseconds, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    whole, fraction = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{whole:02d}.{fraction:03d}"
