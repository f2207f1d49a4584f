"""schema.org JSON-LD for episode and show pages. The templates embed it with `tojson`, which
escapes `<`, `>`, `&` and `'`, so no field can close the script block."""

from typing import Any

from podpages import site_paths
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.durations import iso_duration
from podpages.moments import rfc3339

SCHEMA_ORG = "https://schema.org"


def podcast_episode(catalog: Catalog, entry: CatalogEntry, site_url: str) -> dict[str, Any]:
    episode = entry.episode
    data: dict[str, Any] = {
        "@context": SCHEMA_ORG,
        "@type": "PodcastEpisode",
        "url": site_url + site_paths.episode(catalog.show, entry.slug),
        "name": episode.title,
        "datePublished": rfc3339(episode.published),
        "description": episode.summary,
        "duration": iso_duration(episode.duration),
        "associatedMedia": {
            "@type": "MediaObject",
            "contentUrl": episode.audio.url,
            "encodingFormat": episode.audio.type,
        },
        "partOfSeries": _series_reference(catalog, site_url),
    }
    if episode.episode_number:
        data["episodeNumber"] = episode.episode_number
    if episode.season:
        data["partOfSeason"] = {"@type": "PodcastSeason", "seasonNumber": episode.season}
    if image := episode.image or catalog.show_document.image:
        data["image"] = image
    if episode.keywords:
        data["keywords"] = ", ".join(episode.keywords)
    return data


def podcast_series(catalog: Catalog, site_url: str) -> dict[str, Any]:
    show = catalog.show_document
    data = _series_reference(catalog, site_url) | {
        "@context": SCHEMA_ORG,
        "description": show.description,
        "inLanguage": show.language,
        "webFeed": site_url + site_paths.feed(catalog.show),
        "author": {"@type": "Person", "name": show.author},
    }
    if show.image:
        data["image"] = show.image
    return data


def _series_reference(catalog: Catalog, site_url: str) -> dict[str, Any]:
    return {
        "@type": "PodcastSeries",
        "name": catalog.show_document.title,
        "url": site_url + site_paths.show_home(catalog.show),
    }
