"""How `podpages render` shares a site out among its workers: a small show whole, a large one in runs."""

import shutil
from datetime import UTC, datetime, timedelta

from podpages.catalog.model import Catalog
from podpages.catalog.staleness import Refresh, all_listings, everything
from podpages.cli import render
from podpages.cli.render import EPISODES_PER_RUN, Pages, Whole, run_length, show_tasks
from podpages.cli.site_folder import MANIFEST, SiteFolder
from podpages.cli.source_folder import read_source_folder
from podpages.settings import Settings
from support.catalogs import SITE_URL, daily_catalog, episode_document, put_episode
from support.folders import contents
from support.paths import EXAMPLES

SETTINGS = Settings(site_url=SITE_URL, feed_max_items=20)


def test_runs_of_pages_give_each_worker_a_few_and_are_never_longer_than_the_most_a_run_holds():
    assert run_length(episodes=10_000, workers=2) == EPISODES_PER_RUN
    assert run_length(episodes=1_000, workers=2) == 125  # 4 runs to each of 2 workers
    assert run_length(episodes=3, workers=4) == 1
    assert run_length(episodes=0, workers=2) == 1


def test_a_show_no_longer_than_a_run_is_one_task_of_everything_it_publishes():
    catalog = daily_catalog(30)

    [task] = show_tasks(catalog, SETTINGS, workers=2, longest=30)

    # worked out by the worker that takes it, not while the workers wait to begin
    assert isinstance(task, Whole) and task.refresh(catalog) == everything(catalog, SETTINGS.feed_max_items)


def test_a_longer_show_is_its_listings_then_runs_of_its_pages_then_its_archives():
    catalog = daily_catalog(120)  # a feed of 20 and its archive pages; the years 2025 and 2026
    for number in range(1, 121, 3):  # a transcript in every third, chapters in every sixth
        chapters = {"chapters": [{"start": 0, "title": "Opening"}]} if number % 2 else {}
        published = catalog.episodes[number - 1].published.isoformat()
        document = episode_document(f"Episode {number}", published, transcript="Words spoken.", **chapters)
        catalog = catalog.apply(put_episode("daily", f"e{number:02d}", document), SETTINGS.excerpt_chars)
    whole = everything(catalog, SETTINGS.feed_max_items)
    archive_pages = sorted(all_listings(catalog, SETTINGS.feed_max_items).archives)

    listings, *rest = show_tasks(catalog, SETTINGS, workers=2, longest=25)

    # The show page, sitemaps and feed first, without the archives the other tasks share out
    assert (listings.feed, listings.show_page, listings.episodes, listings.years, listings.archives) == (
        True,
        True,
        set(),
        set(),
        set(),
    )
    pages = [task.refresh(catalog) for task in rest if isinstance(task, Pages)]
    archives = [task for task in rest if isinstance(task, Refresh) and task.archives]
    years = [task for task in rest if isinstance(task, Refresh) and task.years]
    # Then every page once, in runs of at most 25, each with its transcript and chapters as a whole render has them
    assert len(pages) == 8 and all(len(task.episodes) <= 25 for task in pages)
    assert sorted(slug for task in pages for slug in task.episodes) == sorted(whole.episodes)
    assert len(whole.transcripts) == 40 and len(whole.chapters) == 20
    assert {slug: update for task in pages for slug, update in task.transcripts.items()} == whole.transcripts
    assert set().union(*(task.chapters for task in pages)) == whole.chapters
    # Then every feed archive and year archive once, after the pages
    assert len(archive_pages) > 1 and sorted(page for task in archives for page in task.archives) == archive_pages
    assert sorted(year for task in years for year in task.years) == sorted(whole.years) == [2025, 2026]
    assert [type(task) for task in rest] == [Pages] * len(pages) + [Refresh] * (len(archives) + len(years))
    assert rest[len(pages) :] == archives + years


def test_a_run_of_pages_is_of_episodes_next_to_each_other_in_publish_order_whatever_their_slugs():
    # Given 60 daily episodes whose slugs do not sort in publish order
    catalog = Catalog(show="daily")
    for number in range(60):
        published = (datetime(2026, 1, 1, 9, tzinfo=UTC) + timedelta(days=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        slug = f"e{number * 37 % 61:02d}"  # e00, e37, e13, e50, …
        catalog = catalog.apply(put_episode("daily", slug, episode_document(f"Episode {number}", published)), 200)

    # When the show is shared out in runs of at most 15 pages
    _listings, *rest = show_tasks(catalog, SETTINGS, workers=2, longest=15)

    # Then each run holds neighbours: episodes whose places in publish order follow one another
    place = {entry.slug: number for number, entry in enumerate(catalog.episodes)}
    pages = [sorted(place[slug] for slug in task.refresh(catalog).episodes) for task in rest if isinstance(task, Pages)]
    assert len(pages) == 8
    assert all(places == list(range(places[0], places[-1] + 1)) for places in pages)
    assert sorted(number for places in pages for number in places) == list(range(60))


class RecordingSite(SiteFolder):
    """A site folder that keeps the keys each call of `apply` writes, as well as writing them."""

    def __init__(self, root):
        super().__init__(root)
        self.calls: list[list[str]] = []

    def apply(self, puts, deletes):
        self.calls.append([item.key for item in puts])
        super().apply(puts, deletes)


def written_by_a_worker(source, out, task, held, monkeypatch) -> RecordingSite:
    """The site a worker writes for `task`, holding at most `held` bytes of transcript files."""
    out.mkdir()
    site = RecordingSite(out)
    monkeypatch.setattr(render, "_render", render.Render(source, SETTINGS, site))
    monkeypatch.setattr(render, "HELD_TRANSCRIPT_FILES", held)
    written = render._write(task)
    assert written == sum(len(keys) for keys in site.calls)
    return site


def test_a_worker_writes_its_transcripts_files_whenever_they_pass_what_it_may_hold(tmp_path, monkeypatch):
    # Given the examples' show of two episodes with a companion transcript each
    shutil.copytree(EXAMPLES, tmp_path / "source")
    source = read_source_folder(tmp_path / "source", SETTINGS)
    task = ("release-radio", Whole(SETTINGS.feed_max_items))

    # When a worker that may hold no transcript file writes the show, and one that may hold the default
    default = render.HELD_TRANSCRIPT_FILES
    holding_none = written_by_a_worker(source, tmp_path / "none", task, 0, monkeypatch)
    holding_all = written_by_a_worker(source, tmp_path / "all", task, default, monkeypatch)

    # Then the first writes the pages, listings and feed, then each companion's files in a write of
    # their own, as soon as they are rendered; the second the pages, then every transcript's files at once
    companions = [[key for key in keys if key.endswith("/transcript.vtt")] for keys in holding_none.calls]
    assert companions == [
        [],
        ["release-radio/bonus-listener-questions/transcript.vtt"],
        ["release-radio/compiler-caches-explained/transcript.vtt"],
    ]
    assert "release-radio/feed.xml" in holding_none.calls[0]
    assert [len(keys) for keys in holding_all.calls] == [len(holding_none.calls[0]), 10]
    # And both write the same files, byte for byte
    assert sorted(sum(holding_none.calls, [])) == sorted(sum(holding_all.calls, []))
    holding_none_wrote, holding_all_wrote = contents(tmp_path / "none"), contents(tmp_path / "all")
    for wrote in (holding_none_wrote, holding_all_wrote):
        wrote.pop(MANIFEST)  # the same keys, listed in the order of the writes
    assert holding_none_wrote == holding_all_wrote
