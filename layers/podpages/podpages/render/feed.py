"""The show's RSS feed, as podcast apps and Apple read it, built with feedgen.

Every tag that contract v2 added is written only when its field is set, so a v1 show's feed keeps its
bytes; the tags feedgen lacks come through the extensions of `feed_extensions`.
"""

import threading
import uuid
from collections.abc import Iterator
from datetime import datetime
from functools import partial

from feedgen.entry import FeedEntry
from feedgen.feed import FeedGenerator
from feedgen.util import formatRFC2822

from podpages import site_paths
from podpages.catalog.feed_archives import archive_bounds, archive_entries, archive_pages
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.contract import apple_categories
from podpages.contract.documents import Show
from podpages.durations import total_seconds
from podpages.render import feed_runs, site_objects
from podpages.render.feed_content import content_encoded
from podpages.render.feed_extensions import (
    AppleEntryExtension,
    AppleExtension,
    FeedHistoryExtension,
    PodcastEntryExtension,
    PodcastExtension,
    SimpleChaptersEntryExtension,
    SimpleChaptersExtension,
)
from podpages.render.feed_podcast_namespace import Trailer, TranscriptLink
from podpages.render.site_objects import Parts, StreamedObject
from podpages.settings import Settings

# A feed is rendered and written in runs of items: at the contract's maxima one item is about 280 KB,
# and a feed of FEED_MAX_ITEMS (1,000) of them would take 280 MB whole, and its tree in feedgen three
# times that. A run holds at most ITEMS_PER_PART items and, past its first, at most PART_WEIGHT
# characters of what makes an item long, its chapters and its show notes: 2 items at the maxima,
# where 50 took 100 MB at once; items with neither run 50 at a time.
ITEMS_PER_PART = 50
PART_WEIGHT = 300_000
# How a pretty-printed feed document ends, after its last item.
CHANNEL_END = b"  </channel>\n</rss>\n"

# feedgen writes each date with the process's locale set to C, then set back (`formatRFC2822`). Two
# threads doing so at once could leave it C for good, and every later text read of the process
# ASCII alone; the site bucket writes a feed and its archives on several threads. So feedgen
# writes dates on one thread at a time.
FEEDGEN_DATES = threading.Lock()

# podcast:guid is a UUIDv5 of the feed URL without its scheme, in this namespace (podcast namespace spec).
PODCAST_GUIDS = uuid.UUID("ead4c236-bf58-58c6-a2c6-a6b28d128cb6")


def podcast_guid(feed_url: str) -> str:
    return str(uuid.uuid5(PODCAST_GUIDS, feed_url.split("://", 1)[-1].rstrip("/")))


def feed(catalog: Catalog, settings: Settings, kept: feed_runs.KeptRuns | None = None) -> StreamedObject:
    """The subscription feed: the newest `FEED_MAX_ITEMS` episodes, and a link to the newest archive.
    Runs of items in `kept` are taken from there, and those rendered are kept there (`feed_runs`)."""
    path = site_paths.feed(catalog.show)
    pages = archive_pages(catalog, settings.feed_max_items)
    links = [("prev-archive", settings.site_url + site_paths.feed_archive(catalog.show, pages))] if pages else []
    parts = _document(catalog, catalog.newest(settings.feed_max_items), settings, path, links, kept, trailers=True)
    return site_objects.rss(path, parts)


def feed_archive(
    catalog: Catalog, page: int, settings: Settings, kept: feed_runs.KeptRuns | None = None
) -> StreamedObject:
    """Archive page `page` (RFC 5005): its episodes, newest first, linked to the feed and its neighbours.
    Its channel names no `podcast:trailer`: the subscription feed offers them, and a new trailer then
    leaves every full page as it was. Runs of items, likewise, with `kept`."""
    show, site = catalog.show, settings.site_url
    path = site_paths.feed_archive(show, page)
    links = [("current", site + site_paths.feed(show))]
    if page > 1:
        links.append(("prev-archive", site + site_paths.feed_archive(show, page - 1)))
    bounds = archive_bounds(catalog, settings.feed_max_items)
    if page < len(bounds):
        links.append(("next-archive", site + site_paths.feed_archive(show, page + 1)))
    entries = list(reversed(archive_entries(catalog, bounds, page)))
    parts = _document(catalog, entries, settings, path, links, kept, archive=True)
    return site_objects.rss(path, parts, site_objects.ARCHIVE_CACHE)


def _document(
    catalog: Catalog,
    episodes: list[CatalogEntry],
    settings: Settings,
    path: str,
    links: list[tuple[str, str]],
    kept: feed_runs.KeptRuns | None,
    archive: bool = False,
    trailers: bool = False,
) -> Parts:
    """A feed document at `path`: the show's channel and `episodes`, newest first, in parts of a run
    of items each (`_runs`), each taken from `kept` if it holds it. The parts make the bytes feedgen
    writes for the whole document."""

    named_trailers = _trailers(catalog) if trailers else []

    def channel(items: list[CatalogEntry]) -> bytes:
        """The document with `items` alone: the same channel, whichever items it holds."""
        fg = _feed_generator()
        _describe_show(fg, catalog, settings, settings.site_url + path)
        fg.podcastindex.trailers = named_trailers
        if episodes:
            fg.lastBuildDate(episodes[0].published)
            fg.pubDate(episodes[0].published)
            fg.apple.dated = True
        fg.history.links = [*links, *(("hub", hub) for hub in settings.websub_hubs)]
        fg.history.archive = archive
        for entry in items:
            _describe_episode(fg.add_entry(order="append"), catalog, entry, settings)
        with FEEDGEN_DATES:
            return bytes(fg.rss_str(pretty=True))

    def run_items(run: list[CatalogEntry], head: bytes) -> bytes:
        return _items(channel(run), head)

    def parts() -> Iterator[bytes]:
        head = _before_end(channel([]))
        yield head
        context = feed_runs.show_context(catalog, settings.site_url) if kept is not None else b""
        for run in _runs(episodes, by_episode=kept is not None):
            render = partial(run_items, run, head)
            # Without runs to keep, no digest is made of a run's entries.
            yield render() if kept is None else kept.items(feed_runs.run_key(context, catalog, run), render)
        yield CHANNEL_END

    return parts


def _runs(episodes: list[CatalogEntry], by_episode: bool) -> Iterator[list[CatalogEntry]]:
    """`episodes` in runs of at most ITEMS_PER_PART and, past a run's first, of PART_WEIGHT characters
    of chapters and show notes; `by_episode`, each also ends after an episode that ends one
    (`feed_runs.ends_run`), so that runs kept rendered are found again. Without runs to keep, none is
    ended early: each run costs a channel of its own, about 80 µs, and a render of 10,000 episodes'
    feed and archives in runs of about 22 items took 1.1 times as long as in runs of 50."""
    start = 0
    while start < len(episodes):
        end, weight = start + 1, _weight(episodes[start])
        while (
            end < len(episodes)
            and end - start < ITEMS_PER_PART
            and not (by_episode and feed_runs.ends_run(episodes[end - 1]))
        ):
            weight += _weight(episodes[end])
            if weight > PART_WEIGHT:
                break
            end += 1
        yield episodes[start:end]
        start = end


def _weight(entry: CatalogEntry) -> int:
    return len(entry.chapters_json or "") + len(entry.notes_html or "")


def _before_end(document: bytes) -> bytes:
    """The document up to the end of its channel: the channel's own tags, then its items."""
    if not document.endswith(CHANNEL_END):
        raise ValueError(f"a feed document ends {document[-40:]!r}, not with the end of its channel")
    return document.removesuffix(CHANNEL_END)


def _items(document: bytes, head: bytes) -> bytes:
    """The items of `document`, which begins with `head`, the channel's own tags."""
    before_end = _before_end(document)
    if not before_end.startswith(head):
        raise ValueError("a feed document's channel differs with the items it holds")
    return before_end.removeprefix(head)


def _feed_generator() -> FeedGenerator:
    """feedgen with our extensions, in the order their tags appear in the channel and in each item."""
    fg = FeedGenerator()
    fg.load_extension("podcast")
    fg.register_extension("podcastindex", PodcastExtension, PodcastEntryExtension)
    fg.register_extension("apple", AppleExtension, AppleEntryExtension)
    fg.register_extension("psc", SimpleChaptersExtension, SimpleChaptersEntryExtension)
    fg.register_extension("history", FeedHistoryExtension)
    return fg


def _describe_show(fg: FeedGenerator, catalog: Catalog, settings: Settings, self_url: str) -> None:
    show = catalog.show_document
    feed_url = settings.site_url + site_paths.feed(catalog.show)
    show_url = settings.site_url + site_paths.show_home(catalog.show)
    image = show.image or settings.site_url + site_paths.DEFAULT_COVER
    fg.title(show.title)
    fg.description(show.description)
    fg.language(show.language)
    if show.copyright:
        fg.copyright(show.copyright)
    fg.generator("podpages")
    fg.image(url=image, title=show.title, link=show_url)
    fg.link(href=self_url, rel="self", type="application/rss+xml")
    fg.link(href=show.link or show_url, rel="alternate")  # the channel <link> is the last one set
    # feedgen takes only .jpg and .png artwork for itunes:image; other artwork stays on the page and in
    # the RSS <image>, and Apple's required tag names the default cover instead.
    artwork = image if _itunes_artwork(image) else settings.site_url + site_paths.DEFAULT_COVER
    _describe_show_for_apple(fg, show, artwork)
    fg.podcastindex.guid = show.guid or podcast_guid(feed_url)
    fg.podcastindex.locked = show.locked
    fg.podcastindex.locked_owner = show.owner.email if show.owner else None
    fg.podcastindex.show = show


def _describe_show_for_apple(fg: FeedGenerator, show: Show, artwork: str) -> None:
    fg.podcast.itunes_author(show.author)
    fg.podcast.itunes_image(artwork)
    fg.podcast.itunes_type(show.type)
    for name in show.categories:
        category, subcategory = apple_categories.place(name)
        fg.podcast.itunes_category({"cat": category, "sub": subcategory} if subcategory else {"cat": category})
    if show.owner:
        fg.podcast.itunes_owner(name=show.owner.name, email=show.owner.email)
    if show.new_feed_url:
        fg.podcast.itunes_new_feed_url(show.new_feed_url)
    fg.apple.explicit = show.explicit
    fg.apple.block = show.block
    fg.apple.complete = show.complete


def _trailers(catalog: Catalog) -> list[Trailer]:
    """Every trailer of the show, newest first, whether or not the feed still lists it as an item:
    apps offer `podcast:trailer` as the show's preview."""
    return [
        Trailer(
            title=entry.episode.title,
            pubdate=_rfc2822(entry.published),
            url=entry.episode.audio.url,
            length=entry.episode.audio.length,
            type=entry.episode.audio.type,
            season=entry.episode.season,
        )
        for entry in reversed(catalog.trailers())
    ]


def _rfc2822(moment: datetime) -> str:
    """A date as feedgen writes it (`FEEDGEN_DATES`)."""
    with FEEDGEN_DATES:
        written: str = formatRFC2822(moment)
    return written


def _describe_episode(item: FeedEntry, catalog: Catalog, entry: CatalogEntry, settings: Settings) -> None:
    episode = entry.episode_in_full()
    item.title(episode.title)
    item.guid(entry.guid, permalink=False)
    item.link(href=settings.site_url + site_paths.episode(catalog.show, entry.slug))
    item.description(episode.summary)  # plain text; the HTML goes to content:encoded
    chapters = entry.chapters()
    if content := content_encoded(entry.notes(), chapters, episode.duration):
        item.content(content)
    item.enclosure(url=episode.audio.url, length=str(episode.audio.length), type=episode.audio.type)
    item.pubDate(entry.published)
    item.podcast.itunes_duration(total_seconds(episode.duration))
    item.podcast.itunes_episode_type(episode.episode_type)
    if episode.episode_number:
        item.podcast.itunes_episode(episode.episode_number)
    if episode.season:
        item.podcast.itunes_season(episode.season)
    if episode.image and _itunes_artwork(episode.image):
        item.podcast.itunes_image(episode.image)
    item.apple.explicit = catalog.show_document.explicit if episode.explicit is None else episode.explicit
    item.apple.block = episode.block
    item.podcastindex.transcripts = _transcripts(catalog, entry, settings)
    item.podcastindex.episode = episode
    if chapters:
        item.podcastindex.chapters_url = settings.site_url + site_paths.chapters(catalog.show, entry.slug)
        item.psc.chapters = chapters


# A companion transcript's formats, as `podcast:transcript` types them, and whether players show them as captions.
COMPANION_FORMATS = (
    ("vtt", "text/vtt", "captions"),
    ("srt", "application/x-subrip", "captions"),
    ("json", "application/json", None),
    ("txt", "text/plain", None),
)


def _transcripts(catalog: Catalog, entry: CatalogEntry, settings: Settings) -> list[TranscriptLink]:
    """One `podcast:transcript` per format: a companion transcript's four and its page, in the show's
    language; the JSON's text alone, as v1 published it, otherwise."""
    show, slug, site = catalog.show, entry.slug, settings.site_url
    if catalog.companion(slug):
        language = catalog.show_document.language
        links = [
            TranscriptLink(site + site_paths.transcript_file(show, slug, extension), media_type, language, rel)
            for extension, media_type, rel in COMPANION_FORMATS
        ]
        return [*links, TranscriptLink(site + site_paths.transcript_page(show, slug), "text/html", language)]
    if entry.transcript:
        return [TranscriptLink(site + site_paths.transcript(show, slug), "text/plain")]
    return []


def _itunes_artwork(url: str) -> bool:
    """What feedgen accepts as itunes:image (it raises on anything else)."""
    return url.endswith((".jpg", ".png"))
