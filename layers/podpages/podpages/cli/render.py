"""`podpages render`: the whole site from a source folder, into a local folder, on every core.

The files are read and checked by this process and workers beside it (`shared_runs`). Then workers
forked from it, with every catalog in memory, render and write every show's files: a small show's
as one task, a larger show's episode pages, transcripts and chapters in runs of episodes and its
listings and feed in one more task; the site's own files follow here. Each file is rendered by the
same functions as in `render.whole_site`, which the publish path is held to, so the output is byte
for byte the same whatever the number of workers.
"""

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from pathlib import Path

from podpages.catalog.model import Catalog
from podpages.catalog.sitemap_parts import sitemap_parts
from podpages.catalog.staleness import Refresh, all_listings, everything, in_full
from podpages.cli.allocator import keep_freed_memory
from podpages.cli.progress import tally
from podpages.cli.shared_runs import shared_map
from podpages.cli.site_folder import SiteFolder
from podpages.cli.source_folder import SourceFolder, read_source_folder
from podpages.cli.workers import RUNS_PER_WORKER, chunks, lasting_objects, worker_map
from podpages.settings import Settings

# A run's files are held until they are written; so that a worker's memory does not grow with the
# show, a run holds at most so many episodes' pages, year archives or feed archives (of up to 1,000
# items each).
EPISODES_PER_RUN = 1_000
YEARS_PER_RUN = 20
ARCHIVES_PER_RUN = 10
# A worker writes the transcript files it has rendered whenever they pass this many bytes, not at
# the end of its run (`plans.transcript_plans`).
HELD_TRANSCRIPT_FILES = 32 * 2**20


@dataclass(frozen=True)
class Render:
    """What the forked workers render from: set before they start, so each inherits it."""

    source: SourceFolder
    settings: Settings
    site: SiteFolder


_render: Render | None = None


def render_folder(
    root: Path,
    settings: Settings,
    site: SiteFolder,
    workers: int,
    say: Callable[[str], None],
    progress: bool | None = None,
) -> tuple[SourceFolder, int]:
    """Read `root`, render its site into `site`; the folder as read, and how many files were written.
    `progress` shows the files read and the parts of the render done on bars: True always, None on
    a terminal only."""
    keep_freed_memory()
    with lasting_objects() as made:
        with shared_map(workers) as run:
            source = read_source_folder(root, settings, run, progress, meanwhile=_ready_to_render)
        made()
        return source, _render_site(source, settings, site, workers, say, progress)


def _ready_to_render() -> None:
    """Import what renders the files and compile its templates, here, while the workers begin to
    read: the workers that render fork from this process with both done. Imported at the start,
    the render's modules took 60 ms while one core sat idle, and each worker compiled the templates
    it used again, 40 to 60 ms. Only the render's functions import them again, which then costs
    nothing."""
    import podpages.render.plans  # noqa: F401  (imported for the workers to inherit)
    from podpages.templating import load_templates

    load_templates()


def _render_site(
    source: SourceFolder,
    settings: Settings,
    site: SiteFolder,
    workers: int,
    say: Callable[[str], None],
    progress: bool | None,
) -> int:
    """Render the catalogs of `source` into `site` on `workers`; how many files were written."""
    from podpages.render.plans import site_plan  # imported already, while the files were read

    global _render
    _render = Render(source, settings, site)
    shows = sorted(source.catalogs.items())
    longest = run_length(sum(len(catalog.episodes) for _show, catalog in shows), workers)
    tasks = [(show, task) for show, catalog in shows for task in show_tasks(catalog, settings, workers, longest)]
    left = Counter(show for show, _task in tasks)  # each show's tasks not yet done
    written, number = 0, 0
    # The bar counts tasks, which are cut to take a worker about as long as each other (`show_tasks`):
    # in episodes, or in files, it stood still for the last 4 s of a show's 10, while its feed's
    # archives, a few files of many items each, were written.
    with worker_map(workers) as run, tally(len(tasks), "rendering", "part", progress, say) as done:
        # Every show's tasks in one map, so that no worker waits for the others to end a show.
        for (show, _task), count in zip(tasks, run(_write, tasks), strict=True):
            written += count
            done.add(1)
            left[show] -= 1
            if not left[show]:
                number += 1
                done.say(f"[{number}/{len(shows) + 1}] {show}: {len(source.catalogs[show].episodes)} episodes")
    plan = site_plan(
        {show: sitemap_parts(catalog, settings.feed_max_items) for show, catalog in source.catalogs.items()}, settings
    )
    site.apply(plan.puts, plan.deletes)
    say(f"[{len(shows) + 1}/{len(shows) + 1}] site files: {len(plan.puts)} files")
    return written + len(plan.puts)


def run_length(episodes: int, workers: int) -> int:
    """The most episodes' pages a task renders: a few runs to each worker, to even out their pace,
    and never more than EPISODES_PER_RUN."""
    return max(1, min(EPISODES_PER_RUN, -(-episodes // (workers * RUNS_PER_WORKER))))


@dataclass(frozen=True)
class Pages:
    """A run of a show's episodes, next to each other in publish order: their pages, transcripts and
    chapters. The worker that takes the run works out what they publish (`staleness.in_full`): for
    every episode of a show of 10,000, that took 40 to 70 ms here, while the workers waited to begin."""

    places: Sequence[int]  # the episodes' places in the catalog, one after another (a range)

    def refresh(self, catalog: Catalog) -> Refresh:
        return in_full(catalog, catalog.episodes[self.places[0] : self.places[-1] + 1])


@dataclass(frozen=True)
class Whole:
    """Everything a show publishes, as one task, which the worker that takes it works out
    (`staleness.everything`): for a site of 100 shows of 100 episodes, that took 26 to 41 ms here,
    while the workers waited to begin."""

    feed_max_items: int

    def refresh(self, catalog: Catalog) -> Refresh:
        return everything(catalog, self.feed_max_items)


type Task = Refresh | Pages | Whole


def show_tasks(catalog: Catalog, settings: Settings, workers: int, longest: int) -> list[Task]:
    """A show's share of the render, in tasks. A show of at most `longest` episodes is one task,
    everything it publishes: in seven tasks to each, a site of 1,000 shows of 10 episodes took 1.5
    times as long to render. A larger show's show page, sitemaps and feed come first, as a task of
    their own: one worker takes them while the others begin on the pages. The runs of pages, the
    longest, come before the feed's archives and the year archives, so that the workers end on
    short runs, together. A run is of episodes next to each other in publish order, whose pages
    list the same neighbours (`nearby_section.nearby_link`): in runs of slugs in name order, a show
    whose slugs are not in publish order took 1.2 to 1.3 times as long to render."""
    if len(catalog.episodes) <= longest:
        return [Whole(settings.feed_max_items)]
    listings = all_listings(catalog, settings.feed_max_items)
    years, archives = sorted(listings.years), sorted(listings.archives)
    return [
        replace(listings, years=set(), archives=set()),
        *(Pages(places) for places in runs(range(len(catalog.episodes)), workers, longest)),
        *(Refresh(archives=set(share)) for share in runs(archives, workers, ARCHIVES_PER_RUN)),
        *(Refresh(years=set(share)) for share in runs(years, workers, YEARS_PER_RUN)),
    ]


def runs[T](items: Sequence[T], workers: int, longest: int) -> list[Sequence[T]]:
    """`items` in runs of at most `longest`, and a few to each worker, to even out their pace."""
    return chunks(items, max(workers * RUNS_PER_WORKER, -(-len(items) // longest)))


def _write(task: tuple[str, Task]) -> int:
    """Render and write a share of one show: a run of its episodes' pages, or its listings and feed.
    The transcripts' files are written whenever they pass HELD_TRANSCRIPT_FILES: held to the end of
    each run, a render of 3,000 episodes with an hour's companion each peaked at 342 MB, and now at 115."""
    from podpages.render.plans import feed_plan, listing_plan, page_plan, transcript_plans  # imported before forking

    assert _render is not None, "set before the workers fork"
    show, share = task
    catalog, settings, site = _render.source.catalogs[show], _render.settings, _render.site
    refresh = share if isinstance(share, Refresh) else share.refresh(catalog)
    pages = page_plan(catalog, refresh, settings)
    pages += listing_plan(catalog, refresh, settings)
    pages += feed_plan(catalog, refresh, settings)
    transcripts = transcript_plans(catalog, refresh, settings, _render.source.transcripts, HELD_TRANSCRIPT_FILES)
    written = 0
    for plan in chain([pages], transcripts):
        site.apply(plan.puts, plan.deletes)
        written += len(plan.puts)
    return written
