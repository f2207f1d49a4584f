"""schema.org JSON-LD for episode and show pages. The templates embed it with `tojson`, which
escapes `<`, `>`, `&` and `'`, so no field can close the script block.

Contract v2 adds what is only written when it is given, so a v1 document describes itself as before:

- Chapters are the episode's `hasPart`, one `Clip` each, from its start to the next chapter's start
  (the last to the end of the audio), in seconds, with the URL of its item on the page.
- People are `Person`s under the property schema.org has for what they do. Those in the podcast
  namespace's cast group (hosts, co-hosts, guests, narrators…) appear in the show, which is what
  `actor` says of an episode or a series; everyone else (producers, editors, engineers…) worked on it,
  which is `contributor`. An episode's people replace its show's, as on the page.
"""

from collections.abc import Sequence
from typing import Any

from podpages import site_paths
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.contract.chapters import Chapter
from podpages.contract.documents import Episode
from podpages.contract.persons import Person
from podpages.durations import iso_duration
from podpages.moments import rfc3339

SCHEMA_ORG = "https://schema.org"
CAST = "cast"


def podcast_episode(
    catalog: Catalog, entry: CatalogEntry, episode: Episode, site_url: str, chapters: tuple[Chapter, ...]
) -> dict[str, Any]:
    """The episode's JSON-LD, from `episode` (`entry.episode_in_full()`) and `chapters`
    (`entry.chapters()`), which the page has parsed already."""
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
    if chapters:
        data["hasPart"] = _clips(chapters, episode.duration.total_seconds(), data["url"])
    data |= _people(episode.persons or catalog.show_document.persons or ())
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
    data |= _people(show.persons or ())
    return data


def chapter_anchor(number: int) -> str:
    """The id of a chapter's item on the episode page, counting from 1."""
    return f"chapter-{number}"


def _clips(chapters: Sequence[Chapter], duration: float, page_url: str) -> list[dict[str, Any]]:
    ends = [chapter.start for chapter in chapters[1:]] + [duration]
    return [
        {
            "@type": "Clip",
            "name": chapter.title,
            "startOffset": _seconds(chapter.start),
            "endOffset": _seconds(end),
            "url": f"{page_url}#{chapter_anchor(number)}",
        }
        for number, (chapter, end) in enumerate(zip(chapters, ends, strict=True), start=1)
    ]


def _people(persons: Sequence[Person]) -> dict[str, list[dict[str, Any]]]:
    """The people as `actor` and `contributor` lists, each only when someone is in it."""
    found: dict[str, list[dict[str, Any]]] = {}
    for person in persons:
        entry: dict[str, Any] = {"@type": "Person", "name": person.name}
        if person.href:
            entry["url"] = person.href
        found.setdefault("actor" if person.group == CAST else "contributor", []).append(entry)
    return found


def _seconds(value: float) -> int | float:
    """Whole seconds as an integer, so that JSON says 95, not 95.0."""
    return int(value) if value.is_integer() else value


def _series_reference(catalog: Catalog, site_url: str) -> dict[str, Any]:
    return {
        "@type": "PodcastSeries",
        "name": catalog.show_document.title,
        "url": site_url + site_paths.show_home(catalog.show),
    }
