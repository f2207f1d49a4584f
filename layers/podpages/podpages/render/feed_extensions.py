"""feedgen extensions for the tags feedgen lacks: the podcast namespace (PSP-1), Apple's
true/false `itunes:explicit`, and no wall-clock build date."""

from typing import Any

from feedgen.ext.base import BaseEntryExtension, BaseExtension
from feedgen.util import xml_elem

PODCAST_NS = "https://podcastindex.org/namespace/1.0"
ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd"


class PodcastExtension(BaseExtension):
    """Channel tags of the podcast namespace: `podcast:guid` and `podcast:locked`."""

    def __init__(self) -> None:
        self.guid: str | None = None
        self.locked: bool | None = None
        self.locked_owner: str | None = None

    def extend_ns(self) -> dict[str, str]:
        return {"podcast": PODCAST_NS}

    def extend_rss(self, feed: Any) -> Any:
        channel = feed[0]
        if self.guid:
            xml_elem(f"{{{PODCAST_NS}}}guid", channel).text = self.guid
        if self.locked is not None:
            locked = xml_elem(f"{{{PODCAST_NS}}}locked", channel)
            locked.text = "yes" if self.locked else "no"
            if self.locked_owner:
                locked.attrib["owner"] = self.locked_owner
        return feed


class PodcastEntryExtension(BaseEntryExtension):
    """Item tags of the podcast namespace: `podcast:transcript`."""

    def __init__(self) -> None:
        self.transcripts: list[tuple[str, str]] = []  # (url, media type)

    def extend_rss(self, entry: Any) -> Any:
        for url, media_type in self.transcripts:
            transcript = xml_elem(f"{{{PODCAST_NS}}}transcript", entry)
            transcript.attrib["url"] = url
            transcript.attrib["type"] = media_type
        return entry


class AppleExtension(BaseExtension):
    """`itunes:explicit` as Apple now wants it, true or false (feedgen writes yes/no/clean).

    feedgen stamps `lastBuildDate` with the wall clock unless given one; a show with no
    episodes has no date to give, so the tag is dropped rather than invented.
    """

    def __init__(self) -> None:
        self.explicit: bool | None = None
        self.dated = False

    def extend_rss(self, feed: Any) -> Any:
        channel = feed[0]
        if self.explicit is not None:
            xml_elem(f"{{{ITUNES_NS}}}explicit", channel).text = "true" if self.explicit else "false"
        if not self.dated:
            for undated in channel.findall("lastBuildDate"):
                channel.remove(undated)
        return feed


class AppleEntryExtension(BaseEntryExtension):
    def __init__(self) -> None:
        self.explicit: bool | None = None

    def extend_rss(self, entry: Any) -> Any:
        if self.explicit is not None:
            xml_elem(f"{{{ITUNES_NS}}}explicit", entry).text = "true" if self.explicit else "false"
        return entry
