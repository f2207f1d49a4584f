"""`podpages render`: the whole site from a source folder, into a local folder, on every core.

The files are read and checked by workers. Then each show's episode pages, transcripts and chapters
are rendered and written by workers in runs of episodes, and its listings and feed by one more; the
site's own files follow here. Each file is rendered by the same functions as in `render.whole_site`,
which the publish path is held to, so the output is byte for byte the same whatever the number of
workers.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from podpages.catalog.sitemap_parts import sitemap_parts
from podpages.catalog.staleness import Refresh, all_listings, everything
from podpages.cli.allocator import keep_freed_memory
from podpages.cli.site_folder import SiteFolder
from podpages.cli.source_folder import SourceFolder, read_source_folder
from podpages.cli.workers import RUNS_PER_WORKER, chunks, lasting_objects, worker_map
from podpages.render.plans import feed_plan, listing_plan, page_plan, site_plan
from podpages.settings import Settings

# A run's files are held until they are written; so that a worker's memory does not grow with the
# show, a run holds at most so many episodes' pages, year archives or feed archives (of up to 1,000
# items each).
EPISODES_PER_RUN = 1_000
YEARS_PER_RUN = 20
ARCHIVES_PER_RUN = 10


@dataclass(frozen=True)
class Render:
    """What the forked workers render from: set before they start, so each inherits it."""

    source: SourceFolder
    settings: Settings
    site: SiteFolder


_render: Render | None = None


def render_folder(
    root: Path, settings: Settings, site: SiteFolder, workers: int, say: Callable[[str], None]
) -> tuple[SourceFolder, int]:
    """Read `root`, render its site into `site`; the folder as read, and how many files were written."""
    keep_freed_memory()
    with lasting_objects() as made:
        with worker_map(workers) as run:
            source = read_source_folder(root, settings, run)
        made()
        return source, _render_site(source, settings, site, workers, say)


def _render_site(
    source: SourceFolder, settings: Settings, site: SiteFolder, workers: int, say: Callable[[str], None]
) -> int:
    """Render the catalogs of `source` into `site` on `workers`; how many files were written."""
    global _render
    _render = Render(source, settings, site)
    written = 0
    with worker_map(workers, one_at_a_time=True) as run:
        for number, (show, catalog) in enumerate(sorted(source.catalogs.items()), start=1):
            refresh = everything(catalog, settings.feed_max_items)
            listings = all_listings(catalog, settings.feed_max_items)
            # The show page, sitemaps and feed first, as a task of their own: one worker takes them
            # while the others begin on the pages. The runs of pages, the longest, come before the
            # feed's archives and the year archives, so that the workers end on short runs, together.
            tasks = [replace(listings, years=set(), archives=set())]
            years, archives = sorted(listings.years), sorted(listings.archives)
            tasks += [part(refresh, slugs) for slugs in runs(sorted(refresh.episodes), workers, EPISODES_PER_RUN)]
            tasks += [Refresh(archives=set(share)) for share in runs(archives, workers, ARCHIVES_PER_RUN)]
            tasks += [Refresh(years=set(share)) for share in runs(years, workers, YEARS_PER_RUN)]
            written += sum(run(_write, [(show, task) for task in tasks]))
            say(f"[{number}/{len(source.catalogs) + 1}] {show}: {len(refresh.episodes)} episodes")
    plan = site_plan(
        {show: sitemap_parts(catalog, settings.feed_max_items) for show, catalog in source.catalogs.items()}, settings
    )
    site.apply(plan.puts, plan.deletes)
    say(f"[{len(source.catalogs) + 1}/{len(source.catalogs) + 1}] site files: {len(plan.puts)} files")
    return written + len(plan.puts)


def runs[T](items: Sequence[T], workers: int, longest: int) -> list[Sequence[T]]:
    """`items` in runs of at most `longest`, and a few to each worker, to even out their pace."""
    return chunks(items, max(workers * RUNS_PER_WORKER, -(-len(items) // longest)))


def part(refresh: Refresh, slugs: Sequence[str]) -> Refresh:
    """The episodes' share of `refresh`: their pages, transcripts and chapters."""
    return Refresh(
        episodes=set(slugs),
        transcripts={slug: refresh.transcripts[slug] for slug in slugs if slug in refresh.transcripts},
        chapters=refresh.chapters.intersection(slugs),
    )


def _write(task: tuple[str, Refresh]) -> int:
    """Render and write a share of one show: a run of its episodes' pages, or its listings and feed."""
    assert _render is not None, "set before the workers fork"
    show, refresh = task
    catalog, settings = _render.source.catalogs[show], _render.settings
    plan = page_plan(catalog, refresh, settings, _render.source.transcripts)
    plan += listing_plan(catalog, refresh, settings)
    plan += feed_plan(catalog, refresh, settings)
    _render.site.apply(plan.puts, plan.deletes)
    return len(plan.puts)
