"""feedgen extensions for the tags feedgen lacks: the podcast namespace (PSP-1), Podlove Simple
Chapters, Apple's true/false `itunes:explicit` and its "Yes" flags, no wall-clock build date, and
RFC 5005's feed history."""

from typing import Any

from feedgen.ext.base import BaseEntryExtension, BaseExtension
from feedgen.util import xml_elem

from podpages.contract.chapters import Chapter
from podpages.contract.documents import Episode, Show
from podpages.render import feed_podcast_namespace as podcast
from podpages.render.feed_podcast_namespace import PODCAST_NS, Trailer, TranscriptLink
from podpages.render.feed_simple_chapters import simple_chapters

ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd"
ATOM_NS = "http://www.w3.org/2005/Atom"
HISTORY_NS = "http://purl.org/syndication/history/1.0"


class PodcastExtension(BaseExtension):
    """Channel tags of the podcast namespace: `podcast:guid`, `podcast:locked`, what the show's
    document sets, and a `podcast:trailer` for each trailer episode."""

    def __init__(self) -> None:
        self.guid: str | None = None
        self.locked: bool | None = None
        self.locked_owner: str | None = None
        self.show: Show | None = None
        self.trailers: list[Trailer] = []

    def extend_ns(self) -> dict[str, str]:
        return {"podcast": PODCAST_NS}

    def extend_rss(self, feed: Any) -> Any:
        channel = feed[0]
        if self.guid:
            podcast.guid(channel, self.guid)
        if self.locked is not None:
            podcast.locked(channel, self.locked, self.locked_owner)
        if self.show is not None:
            podcast.show_tags(channel, self.show)
        for clip in self.trailers:
            podcast.trailer(channel, clip)
        return feed


class PodcastEntryExtension(BaseEntryExtension):
    """Item tags of the podcast namespace: `podcast:transcript`, and what the episode sets."""

    def __init__(self) -> None:
        self.transcripts: list[TranscriptLink] = []
        self.episode: Episode | None = None
        self.chapters_url: str | None = None  # where its chapters.json is published, if it has chapters

    def extend_rss(self, entry: Any) -> Any:
        for link in self.transcripts:
            podcast.transcript(entry, link)
        if self.episode is not None:
            podcast.episode_tags(entry, self.episode, self.chapters_url)
        return entry


class SimpleChaptersExtension(BaseExtension):
    """Declares nothing on the feed's root: each `psc:chapters` declares its own namespace."""


class SimpleChaptersEntryExtension(BaseEntryExtension):
    """An item's chapters, inline, as Podlove Simple Chapters."""

    def __init__(self) -> None:
        self.chapters: tuple[Chapter, ...] = ()

    def extend_rss(self, entry: Any) -> Any:
        if self.chapters:
            simple_chapters(entry, self.chapters)
        return entry


def _yes(parent: Any, name: str) -> None:
    """An Apple flag that is on: Apple spells it "Yes", and leaving the tag out means no."""
    xml_elem(f"{{{ITUNES_NS}}}{name}", parent).text = "Yes"


class AppleExtension(BaseExtension):
    """`itunes:explicit` as Apple now wants it, true or false (feedgen writes yes/no/clean), and
    `itunes:block` and `itunes:complete` as Apple spells them, "Yes" (feedgen writes lowercase).

    feedgen stamps `lastBuildDate` with the wall clock unless given one; a show with no
    episodes has no date to give, so the tag is dropped rather than invented.
    """

    def __init__(self) -> None:
        self.explicit: bool | None = None
        self.block = False  # keep the show out of Apple's directory
        self.complete = False  # no more episodes will come
        self.dated = False

    def extend_rss(self, feed: Any) -> Any:
        channel = feed[0]
        if self.explicit is not None:
            xml_elem(f"{{{ITUNES_NS}}}explicit", channel).text = "true" if self.explicit else "false"
        if self.block:
            _yes(channel, "block")
        if self.complete:
            _yes(channel, "complete")
        if not self.dated:
            for undated in channel.findall("lastBuildDate"):
                channel.remove(undated)
        return feed


class AppleEntryExtension(BaseEntryExtension):
    def __init__(self) -> None:
        self.explicit: bool | None = None
        self.block = False  # keep the episode out of Apple Podcasts

    def extend_rss(self, entry: Any) -> Any:
        if self.explicit is not None:
            xml_elem(f"{{{ITUNES_NS}}}explicit", entry).text = "true" if self.explicit else "false"
        if self.block:
            _yes(entry, "block")
        return entry


class FeedHistoryExtension(BaseExtension):
    """RFC 5005: the `current`, `prev-archive` and `next-archive` links between the subscription feed
    and its archive documents, and an archive's `fh:archive` mark. feedgen writes only `rel="self"`
    among RSS's atom links. `fh` is declared on `fh:archive` itself, so that a feed with no archives
    keeps the bytes it had before archives existed."""

    def __init__(self) -> None:
        self.links: list[tuple[str, str]] = []  # (rel, href), in the order written
        self.archive = False  # this document is an archive, not the subscription feed

    def extend_rss(self, feed: Any) -> Any:
        channel = feed[0]
        for rel, href in self.links:
            link = xml_elem(f"{{{ATOM_NS}}}link", channel)
            link.attrib["rel"] = rel
            link.attrib["type"] = "application/rss+xml"
            link.attrib["href"] = href
        if self.archive:
            xml_elem(f"{{{HISTORY_NS}}}archive", channel, nsmap={"fh": HISTORY_NS})
        return feed
