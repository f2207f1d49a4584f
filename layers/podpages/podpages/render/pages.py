"""The HTML pages: an episode's page, its show's page and the show's year archives."""

from typing import Any

from podpages import site_paths
from podpages.catalog.model import Catalog
from podpages.errors import UnknownEpisode
from podpages.excerpt import meta_description, paragraphs
from podpages.nearby_section import nearby_section
from podpages.render import site_objects, structured_data
from podpages.render.site_objects import SiteObject
from podpages.settings import Settings
from podpages.templating import render

SHOW_PAGE_EPISODES = 20
EXCERPT_NOTE = (
    "This excerpt keeps the crawler page concise. Listen to the episode or use the RSS feed for the full update."
)


def episode_page(catalog: Catalog, slug: str, settings: Settings) -> SiteObject:
    entry = catalog.entry(slug)
    if entry is None:
        raise UnknownEpisode(catalog.show, slug)
    path = site_paths.episode(catalog.show, slug)
    text = render(
        "episode.html",
        **_common(catalog, settings),
        heading=f"{catalog.show_document.title}: {entry.episode.title}",
        social_title=entry.episode.title,
        og_type="article",
        entry=entry,
        url=settings.site_url + path,
        summary=paragraphs(entry.episode.summary),
        description=meta_description(entry.episode.summary),
        image=entry.episode.image or catalog.show_document.image,
        excerpt_note=EXCERPT_NOTE,
        notes=entry.notes_html,
        chapter_anchor=structured_data.chapter_anchor,
        nearby_section=nearby_section(
            catalog.show, catalog.show_document.title, catalog.nearby(slug, settings.nearby_count), settings.site_url
        ),
        structured_data=structured_data.podcast_episode(catalog, entry, settings.site_url),
    )
    return site_objects.html(path, text)


def show_page(catalog: Catalog, settings: Settings) -> SiteObject:
    path = site_paths.show_home(catalog.show)
    text = render(
        "show.html",
        **_common(catalog, settings),
        heading=catalog.show_document.title,
        social_title=catalog.show_document.title,
        og_type="website",
        image=catalog.show_document.image,
        url=settings.site_url + path,
        description=meta_description(catalog.show_document.description),
        summary=paragraphs(catalog.show_document.description),
        episodes=catalog.newest(SHOW_PAGE_EPISODES),
        years=[(year, len(catalog.in_year(year))) for year in catalog.years()],
        structured_data=structured_data.podcast_series(catalog, settings.site_url),
    )
    return site_objects.html(path, text)


def archive_page(catalog: Catalog, year: int, settings: Settings) -> SiteObject:
    path = site_paths.archive(catalog.show, year)
    heading = f"{catalog.show_document.title}: episodes from {year}"
    text = render(
        "archive.html",
        **_common(catalog, settings),
        heading=heading,
        social_title=heading,
        og_type="website",
        image=catalog.show_document.image,
        structured_data=None,
        url=settings.site_url + path,
        description=f"Every episode of {catalog.show_document.title} published in {year}.",
        episodes=catalog.in_year(year),
    )
    return site_objects.html(path, text)


def _common(catalog: Catalog, settings: Settings) -> dict[str, Any]:
    return {
        "slug": catalog.show,
        "show": catalog.show_document,
        "paths": site_paths,
        "site_url": settings.site_url,
    }
