"""The show's RSS feed, as podcast apps and Apple read it, built with feedgen."""

import uuid

from feedgen.feed import FeedGenerator

from podpages import site_paths
from podpages.catalog.model import Catalog
from podpages.contract import apple_categories
from podpages.durations import total_seconds
from podpages.render import site_objects
from podpages.render.feed_extensions import AppleEntryExtension, AppleExtension, PodcastEntryExtension, PodcastExtension
from podpages.render.site_objects import SiteObject
from podpages.settings import Settings

# podcast:guid is a UUIDv5 of the feed URL without its scheme, in this namespace (podcast namespace spec).
PODCAST_GUIDS = uuid.UUID("ead4c236-bf58-58c6-a2c6-a6b28d128cb6")


def podcast_guid(feed_url: str) -> str:
    return str(uuid.uuid5(PODCAST_GUIDS, feed_url.split("://", 1)[-1].rstrip("/")))


def feed(catalog: Catalog, settings: Settings) -> SiteObject:
    show = catalog.show_document
    path = site_paths.feed(catalog.show)
    feed_url = settings.site_url + path
    show_url = settings.site_url + site_paths.show_home(catalog.show)
    image = show.image or settings.site_url + site_paths.DEFAULT_COVER
    episodes = catalog.newest(settings.feed_max_items)

    fg = FeedGenerator()
    fg.load_extension("podcast")
    fg.register_extension("podcastindex", PodcastExtension, PodcastEntryExtension)
    fg.register_extension("apple", AppleExtension, AppleEntryExtension)
    fg.title(show.title)
    fg.description(show.description)
    fg.language(show.language)
    fg.generator("podpages")
    fg.image(url=image, title=show.title, link=show_url)
    fg.link(href=feed_url, rel="self", type="application/rss+xml")
    fg.link(href=show.link or show_url, rel="alternate")  # the channel <link> is the last one set
    fg.podcast.itunes_author(show.author)
    # feedgen takes only .jpg and .png artwork for itunes:image; other artwork stays on the page and in
    # the RSS <image>, and Apple's required tag names the default cover instead.
    fg.podcast.itunes_image(image if _itunes_artwork(image) else settings.site_url + site_paths.DEFAULT_COVER)
    fg.podcast.itunes_type("episodic")
    for name in show.categories:
        category, subcategory = apple_categories.place(name)
        fg.podcast.itunes_category({"cat": category, "sub": subcategory} if subcategory else {"cat": category})
    if show.owner:
        fg.podcast.itunes_owner(name=show.owner.name, email=show.owner.email)
    fg.apple.explicit = show.explicit
    fg.podcastindex.guid = show.guid or podcast_guid(feed_url)
    fg.podcastindex.locked = show.locked
    fg.podcastindex.locked_owner = show.owner.email if show.owner else None
    if episodes:
        fg.lastBuildDate(episodes[0].published)
        fg.pubDate(episodes[0].published)
        fg.apple.dated = True

    for entry in episodes:
        episode = entry.episode
        item = fg.add_entry(order="append")
        item.title(episode.title)
        item.guid(entry.guid, permalink=False)
        item.link(href=settings.site_url + site_paths.episode(catalog.show, entry.slug))
        item.description(episode.summary)
        item.enclosure(url=episode.audio.url, length=str(episode.audio.length), type=episode.audio.type)
        item.pubDate(entry.published)
        item.podcast.itunes_duration(total_seconds(episode.duration))
        item.podcast.itunes_episode_type("full")
        if episode.episode_number:
            item.podcast.itunes_episode(episode.episode_number)
        if episode.season:
            item.podcast.itunes_season(episode.season)
        if episode.image and _itunes_artwork(episode.image):
            item.podcast.itunes_image(episode.image)
        item.apple.explicit = show.explicit if episode.explicit is None else episode.explicit
        if entry.transcript:
            transcript_url = settings.site_url + site_paths.transcript(catalog.show, entry.slug)
            item.podcastindex.transcripts.append((transcript_url, "text/plain"))

    return site_objects.rss(path, fg.rss_str(pretty=True))


def _itunes_artwork(url: str) -> bool:
    """What feedgen accepts as itunes:image (it raises on anything else)."""
    return url.endswith((".jpg", ".png"))
