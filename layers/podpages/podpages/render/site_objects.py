"""An object to publish: its key, its bytes, and the headers CloudFront serves it with (a content
type with its charset, and a cache lifetime). Most objects are rendered whole; a feed is rendered a
part at a time as it is written (`StreamedObject`)."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from podpages import site_paths

# Pages change when a neighbour is published; the feed is what podcast apps poll, so it is fresher.
PAGE_CACHE = "public, max-age=300, s-maxage=3600"
FEED_CACHE = "public, max-age=60, s-maxage=300"
# A full archive page changes only when one of its episodes does; CloudFront is invalidated when it does.
ARCHIVE_CACHE = "public, max-age=86400, s-maxage=2592000"
SITEMAP_CACHE = "public, max-age=3600, s-maxage=3600"
STATIC_CACHE = "public, max-age=86400, s-maxage=86400"


@dataclass(frozen=True)
class SiteObject:
    key: str
    body: bytes
    content_type: str
    cache_control: str

    def parts(self) -> Iterator[bytes]:
        """The body, as the one part of an object rendered whole (see `StreamedObject`)."""
        yield self.body


# A streamed object's body: each call renders it again, a part at a time.
type Parts = Callable[[], Iterator[bytes]]


@dataclass(frozen=True, eq=False)
class StreamedObject:
    """An object rendered part by part as it is written, so that it is never whole in memory: a feed,
    whose items can take hundreds of megabytes at the contract's maxima. Each call of `parts`
    renders it again, from the start; two are equal only when they are one (compare their bodies)."""

    key: str
    parts: Parts
    content_type: str
    cache_control: str

    @property
    def body(self) -> bytes:
        """The object whole, for a reader that wants it so and knows it to be small."""
        return b"".join(self.parts())


type Published = SiteObject | StreamedObject


@dataclass
class Plan:
    """Objects to write and keys to delete."""

    puts: list[Published] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)

    def __iadd__(self, other: "Plan") -> "Plan":
        self.puts += other.puts
        self.deletes += other.deletes
        return self


def html(path: str, text: str) -> SiteObject:
    return SiteObject(site_paths.object_key(path), text.encode(), "text/html; charset=utf-8", PAGE_CACHE)


def plain_text(path: str, text: str, cache_control: str = PAGE_CACHE) -> SiteObject:
    return SiteObject(site_paths.object_key(path), text.encode(), "text/plain; charset=utf-8", cache_control)


def json_chapters(path: str, text: str) -> SiteObject:
    """A JSON chapters file, served with the media type the format asks for."""
    return SiteObject(site_paths.object_key(path), text.encode(), "application/json+chapters", PAGE_CACHE)


def rss(path: str, parts: Parts, cache_control: str = FEED_CACHE) -> StreamedObject:
    return StreamedObject(site_paths.object_key(path), parts, "application/rss+xml; charset=utf-8", cache_control)


def sitemap(path: str, text: str) -> SiteObject:
    return SiteObject(site_paths.object_key(path), text.encode(), "application/xml; charset=utf-8", SITEMAP_CACHE)


def png(path: str, body: bytes) -> SiteObject:
    return SiteObject(site_paths.object_key(path), body, "image/png", STATIC_CACHE)


def webvtt(path: str, text: str) -> SiteObject:
    """A transcript as WebVTT, the captions format browsers and podcast apps read."""
    return SiteObject(site_paths.object_key(path), text.encode(), "text/vtt; charset=utf-8", PAGE_CACHE)


def subrip(path: str, text: str) -> SiteObject:
    """A transcript as SubRip, which has no registered media type; this is the one players and apps expect."""
    return SiteObject(site_paths.object_key(path), text.encode(), "application/x-subrip; charset=utf-8", PAGE_CACHE)


def json_transcript(path: str, text: str) -> SiteObject:
    """A transcript in the podcast namespace's JSON format, which `podcast:transcript` types as application/json."""
    return SiteObject(site_paths.object_key(path), text.encode(), "application/json", PAGE_CACHE)
