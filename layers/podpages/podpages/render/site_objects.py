"""An object to publish: its key, its bytes, and the headers CloudFront serves it with (a content
type with its charset, and a cache lifetime)."""

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


@dataclass
class Plan:
    """Objects to write and keys to delete."""

    puts: list[SiteObject] = field(default_factory=list)
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


def rss(path: str, body: bytes, cache_control: str = FEED_CACHE) -> SiteObject:
    return SiteObject(site_paths.object_key(path), body, "application/rss+xml; charset=utf-8", cache_control)


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
