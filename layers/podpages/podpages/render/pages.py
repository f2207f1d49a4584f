"""The HTML pages: an episode's page, its show's page and the show's year archives."""

from typing import Any

from podpages import site_paths
from podpages.catalog.feed_archives import SHOW_PAGE_EPISODES
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.errors import UnknownEpisode
from podpages.excerpt import meta_description, paragraphs
from podpages.nearby_section import nearby_section
from podpages.render import site_objects, structured_data
from podpages.render.site_objects import SiteObject
from podpages.settings import Settings
from podpages.templating import render

EXCERPT_NOTE = (
    "This excerpt keeps the crawler page concise. Listen to the episode or use the RSS feed for the full update."
)


def episode_page(catalog: Catalog, slug: str, settings: Settings) -> SiteObject:
    entry = catalog.entry(slug)
    if entry is None:
        raise UnknownEpisode(catalog.show, slug)
    path = site_paths.episode(catalog.show, slug)
    chapters, episode = entry.chapters(), entry.episode_in_full()
    text = render(
        "episode.html",
        **common_context(catalog, settings),
        heading=f"{catalog.show_document.title}: {entry.episode.title}",
        social_title=entry.episode.title,
        og_type="article",
        entry=entry,
        episode=episode,
        url=settings.site_url + path,
        summary=paragraphs(entry.episode.summary),
        description=meta_description(entry.episode.summary),
        image=entry.episode.image or catalog.show_document.image,
        excerpt_note=EXCERPT_NOTE,
        excerpt=catalog.excerpt(entry),
        full_transcript=_full_transcript(catalog, entry),
        notes=entry.notes(),
        chapters=chapters,
        chapter_anchor=structured_data.chapter_anchor,
        nearby_section=nearby_section(
            catalog.show, catalog.show_document.title, catalog.nearby(slug, settings.nearby_count), settings.site_url
        ),
        structured_data=structured_data.podcast_episode(catalog, entry, episode, settings.site_url, chapters),
    )
    return site_objects.html(path, text)


def _full_transcript(catalog: Catalog, entry: CatalogEntry) -> str | None:
    """Where the episode's whole transcript is read: the page a companion transcript makes, or the
    JSON's text as it came; None without a transcript."""
    if catalog.companion(entry.slug):
        return site_paths.transcript_page(catalog.show, entry.slug)
    return site_paths.transcript(catalog.show, entry.slug) if entry.transcript else None


def show_page(catalog: Catalog, settings: Settings) -> SiteObject:
    path = site_paths.show_home(catalog.show)
    text = render(
        "show.html",
        **common_context(catalog, settings),
        heading=catalog.show_document.title,
        social_title=catalog.show_document.title,
        og_type="website",
        image=catalog.show_document.image,
        url=settings.site_url + path,
        description=meta_description(catalog.show_document.description),
        summary=paragraphs(catalog.show_document.description),
        episodes=catalog.newest(SHOW_PAGE_EPISODES),
        years=[(year, catalog.year_count(year)) for year in catalog.years()],
        structured_data=structured_data.podcast_series(catalog, settings.site_url),
    )
    return site_objects.html(path, text)


def archive_page(catalog: Catalog, year: int, settings: Settings) -> SiteObject:
    path = site_paths.archive(catalog.show, year)
    heading = f"{catalog.show_document.title}: episodes from {year}"
    text = render(
        "archive.html",
        **common_context(catalog, settings),
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


def common_context(catalog: Catalog, settings: Settings) -> dict[str, Any]:
    """What base.html needs on every page of a show: its slug, its document, the paths and the site URL."""
    return {
        "slug": catalog.show,
        "show": catalog.show_document,
        "paths": site_paths,
        "site_url": settings.site_url,
    }
