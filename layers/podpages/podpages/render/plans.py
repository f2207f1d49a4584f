"""Turns a refresh into the objects to write and the keys to delete, for one show and for the site."""

import math
from collections.abc import Iterator, Mapping
from typing import Protocol

from podpages import site_paths
from podpages.catalog.feed_archives import archive_pages
from podpages.catalog.model import Catalog
from podpages.catalog.sitemap_parts import sitemap_files
from podpages.catalog.staleness import Refresh, TranscriptUpdate
from podpages.contract.companion_transcripts import Cue
from podpages.render import pages, site_objects, sitemaps
from podpages.render.chapters_file import chapters_file
from podpages.render.feed import feed, feed_archive
from podpages.render.feed_runs import KeptRuns
from podpages.render.site_objects import Plan, Published, SiteObject
from podpages.render.transcript_files import transcript_files
from podpages.render.transcript_page import transcript_page
from podpages.settings import Settings
from podpages.templating import template_file


class TranscriptSources(Protocol):
    """What a transcript is published from, by the key of its upload: an episode JSON's `transcript`
    text, or a companion transcript's cues; None for an upload it does not have. A mapping is one."""

    def get(self, key: str, /) -> str | tuple[Cue, ...] | None: ...


# An edit rewrites one archive page, and a new episode that fills a page two. A publish that
# rewrites more, a removal or an episode back-dated among them, shifts every page after its
# episode's: none of their runs of items was rendered before, so keeping them would only push the
# feed's own runs out.
KEPT_ARCHIVES = 2
# The files a companion transcript adds to transcript.txt, which the JSON's text has too.
COMPANION_FORMATS = ("vtt", "srt", "json")


def show_plan(catalog: Catalog, refresh: Refresh, settings: Settings, sources: TranscriptSources) -> Plan:
    """Everything the refresh asks for: the pages, their transcripts, then the listings, then the feed."""
    plan = page_plan(catalog, refresh, settings)
    for transcripts in transcript_plans(catalog, refresh, settings, sources):
        plan += transcripts
    plan += listing_plan(catalog, refresh, settings)
    plan += feed_plan(catalog, refresh, settings)
    return plan


def page_plan(catalog: Catalog, refresh: Refresh, settings: Settings) -> Plan:
    """Episode pages and chapters files: what a publish writes before it commits the catalog, with
    their transcripts (`transcript_plans`)."""
    plan = Plan()
    show = catalog.show
    # An episode's page and its chapters file one after the other: both show its chapters, parsed once.
    for slug in sorted(refresh.episodes | refresh.chapters):
        entry = catalog.entry(slug)
        if slug in refresh.episodes and entry:
            plan.puts.append(pages.episode_page(catalog, slug, settings))
        elif slug in refresh.episodes:
            plan.deletes += [
                site_paths.object_key(site_paths.episode(show, slug)),
                site_paths.object_key(site_paths.chapters(show, slug)),
            ]
        if slug in refresh.chapters and entry and entry.chapters_json:
            plan.puts.append(chapters_file(show, entry))
        elif slug in refresh.chapters and entry:  # a removed episode's chapters went with its page
            plan.deletes.append(site_paths.object_key(site_paths.chapters(show, slug)))
    return plan


def transcript_plan(
    catalog: Catalog, slug: str, update: TranscriptUpdate, settings: Settings, sources: TranscriptSources
) -> Plan:
    """An episode's transcript files: every format and the page from a companion (the page alone
    when `update.files` is off), the text alone from the JSON, or none; and the companion's files
    deleted where no companion is published any more."""
    show = catalog.show
    text_path = site_paths.transcript(show, slug)
    companion_keys = [site_paths.object_key(site_paths.transcript_file(show, slug, ext)) for ext in COMPANION_FORMATS]
    companion_keys.append(site_paths.object_key(site_paths.transcript_page(show, slug)))
    stale_companion = companion_keys if update.had_companion else []
    if update.source is None:
        return Plan(deletes=[site_paths.object_key(text_path), *stale_companion])
    source = sources.get(update.source)
    entry = catalog.entry(slug)
    if source is None or entry is None:  # the upload is gone: the event that removed it is on its way
        return Plan()
    if isinstance(source, str):
        return Plan(puts=[site_objects.plain_text(text_path, source)], deletes=stale_companion)
    files = transcript_files(show, slug, source) if update.files else []
    return Plan(puts=[*files, transcript_page(catalog, entry, source, settings)])


def transcript_plans(
    catalog: Catalog, refresh: Refresh, settings: Settings, sources: TranscriptSources, held: float = math.inf
) -> Iterator[Plan]:
    """The transcripts' files of `refresh`, from the uploads `sources` holds, in plans to write one
    after another, each closed once its files pass `held` bytes (by default, one plan of them all):
    whoever writes each plan before taking the next holds about that much, however many transcripts
    `refresh` names. A companion's files are a hundred times a page's: an hour's come to about
    700 KB, a file at the contract's 5 MiB to 21 MiB."""
    plan, size = Plan(), 0
    for slug, update in sorted(refresh.transcripts.items()):
        transcript = transcript_plan(catalog, slug, update, settings, sources)
        plan += transcript
        size += sum(len(item.body) for item in transcript.puts)
        if size > held:
            yield plan
            plan, size = Plan(), 0
    if plan.puts or plan.deletes:
        yield plan


def listing_plan(catalog: Catalog, refresh: Refresh, settings: Settings) -> Plan:
    """The pages that list the show's episodes: its year archives, its page and its sitemap parts.
    A publish writes them after its commit, so they only ever list committed episodes."""
    plan = Plan()
    show = catalog.show
    present = set(catalog.years())
    for year in sorted(refresh.years):
        if year in present:
            plan.puts.append(pages.archive_page(catalog, year, settings))
        else:
            plan.deletes.append(site_paths.object_key(site_paths.archive(show, year)))
    if refresh.listings:
        if catalog.is_empty:
            plan.deletes.append(site_paths.object_key(site_paths.show_home(show)))
        else:
            if refresh.show_page:
                plan.puts.append(pages.show_page(catalog, settings))
            plan.puts += sitemaps.show_sitemaps(catalog, settings, refresh.frozen, refresh.head_sitemap)
        # Parts past the catalog's own are left from when the show was larger.
        plan.deletes += [
            site_paths.object_key(site_paths.show_sitemap(show, part))
            for part in range(sitemap_files(catalog, settings.feed_max_items) + 1, refresh.sitemap_parts + 1)
        ]
    return plan


def feed_plan(catalog: Catalog, refresh: Refresh, settings: Settings, kept: KeptRuns | None = None) -> Plan:
    """The feed's archive pages that `refresh` names and, with the show's listings, the feed itself
    where it changed, written after its other listings and its archive pages: while the feed is
    current, so are they. Their runs of items are taken from `kept`, and kept there, if given,
    but for archive pages that shift (`KEPT_ARCHIVES`).
    Archive pages past the catalog's own, left by a show that has shrunk, go."""
    kept_archives = kept if len(refresh.archives) <= KEPT_ARCHIVES else None
    archives: list[Published] = [
        feed_archive(catalog, page, settings, kept_archives) for page in sorted(refresh.archives)
    ]
    if not refresh.listings:
        return Plan(puts=archives)
    show = catalog.show
    gone = [
        site_paths.object_key(site_paths.feed_archive(show, page))
        for page in range(archive_pages(catalog, settings.feed_max_items) + 1, refresh.archive_pages + 1)
    ]
    if catalog.is_empty:
        return Plan(deletes=[*gone, site_paths.object_key(site_paths.feed(show))])
    return Plan(puts=[*archives, *([feed(catalog, settings, kept)] if refresh.feed else [])], deletes=gone)


def site_plan(parts: Mapping[str, int], settings: Settings) -> Plan:
    """The files that belong to the whole site, not to one show, given how many sitemap parts each
    show has (none: it is not published). A site with no shows has none of them, since a sitemap
    index must list at least one sitemap; index files cannot nest, so the index lists every part."""
    listed = [site_paths.show_sitemap(show, part) for show in sorted(parts) for part in range(1, parts[show] + 1)]
    key_file = [indexnow_key_file(settings.indexnow_key)] if settings.indexnow_key else []
    if not listed:
        own = [site_paths.SITEMAP_INDEX, site_paths.ROBOTS, site_paths.DEFAULT_COVER]
        return Plan(deletes=[site_paths.object_key(path) for path in own] + [item.key for item in key_file])
    return Plan(puts=[sitemaps.sitemap_index(listed, settings), sitemaps.robots(settings), default_cover(), *key_file])


def indexnow_key_file(key: str) -> SiteObject:
    """The file by which IndexNow's search engines check that the site owns its key."""
    return site_objects.plain_text(site_paths.indexnow_key(key), key, site_objects.STATIC_CACHE)


def default_cover() -> SiteObject:
    """The artwork a feed names when its show has none, since Apple requires one."""
    return site_objects.png(site_paths.DEFAULT_COVER, template_file("cover.png"))
