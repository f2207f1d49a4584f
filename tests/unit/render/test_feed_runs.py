"""Runs of a feed's items kept rendered from one publish to the next (`render/feed_runs.py`): where
runs end, what a new or changed episode renders again, and how much is kept."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from podpages.catalog.changes import TranscriptPut
from podpages.catalog.model import Catalog
from podpages.catalog.staleness import Refresh
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render.feed import ITEMS_PER_PART, feed, feed_archive
from podpages.render.feed_runs import KeptRuns, ends_run
from podpages.render.plans import KEPT_ARCHIVES, feed_plan
from support.catalogs import SETTINGS, daily_catalog, episode_document, put_episode, put_show, show_document

START = datetime(2025, 12, 20, 9, tzinfo=UTC)  # daily_catalog's


class CountingRuns(KeptRuns):
    """Kept runs that count the runs they had to render."""

    def __init__(self) -> None:
        super().__init__()
        self.rendered = 0

    def items(self, key, render):
        def counted() -> bytes:
            self.rendered += 1
            return render()

        return super().items(key, counted)


def item_runs(catalog: Catalog, kept: KeptRuns | None = None, settings=SETTINGS) -> list[bytes]:
    """The feed's runs of items, as a publish cuts them: its parts but the channel's own tags and its
    end, taken from `kept` or, without, from runs kept anew, so each is rendered."""
    return list(feed(catalog, settings, KeptRuns() if kept is None else kept).parts())[1:-1]


def daily(catalog: Catalog, number: int, title: str | None = None) -> Catalog:
    """`catalog` with episode `number` of the daily show put, at its own day, titled `title`."""
    published = (START + timedelta(days=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
    document = episode_document(title or f"Episode {number}", published)
    return catalog.apply(put_episode("daily", f"e{number:02d}", document), SETTINGS.excerpt_chars)


def test_a_run_ends_after_an_episode_that_ends_one_or_once_it_is_full():
    newest_first = daily_catalog(400).newest(1000)

    runs = [run.count(b"<item>") for run in item_runs(daily_catalog(400))]

    assert sum(runs) == 400
    ends, start = [], 0
    for length in runs:
        ends.append(ends_run(newest_first[start + length - 1]) or length == ITEMS_PER_PART)
        assert not any(ends_run(entry) for entry in newest_first[start : start + length - 1])
        start += length
    assert all(ends[:-1])  # the oldest run ends where the feed does
    assert any(length < ITEMS_PER_PART for length in runs[:-1])  # ended by their episodes, not by the count
    assert 5 < len(runs) < 60


def test_a_render_that_keeps_no_runs_cuts_them_by_size_alone_into_the_same_bytes():
    catalog = daily_catalog(400)

    parts = list(feed(catalog, SETTINGS).parts())

    assert [part.count(b"<item>") for part in parts[1:-1]] == [ITEMS_PER_PART] * (400 // ITEMS_PER_PART)
    assert b"".join(parts[1:-1]) == b"".join(item_runs(catalog))  # the same items as in runs a publish keeps
    assert len(item_runs(catalog)) > 400 // ITEMS_PER_PART


def test_a_new_newest_episode_leaves_every_run_but_the_newest_as_it_was():
    # Given a feed whose newest run is not full, so that its end was set by its episodes
    before = item_runs(daily_catalog(150))
    assert before[0].count(b"<item>") < ITEMS_PER_PART

    # When a new newest episode is published
    after = item_runs(daily(daily_catalog(150), 151))

    # Then the newest run gains it, and every other run holds the same items, byte for byte
    assert after[0].count(b"<item>") == before[0].count(b"<item>") + 1
    assert after[1:] == before[1:]


def test_a_feed_built_from_kept_runs_is_the_feed_rendered_anew_and_renders_only_the_runs_it_lacks():
    kept, catalog = CountingRuns(), daily_catalog(150)

    first = item_runs(catalog, kept)
    assert kept.rendered == len(first)
    assert item_runs(catalog, kept) == first
    assert kept.rendered == len(first)  # the same feed again renders nothing

    newer = daily(catalog, 151)
    assert item_runs(newer, kept) == item_runs(newer)
    assert kept.rendered == len(first) + 1  # the newest run alone


@pytest.mark.parametrize(
    ("change", "runs_rendered_again"),
    [
        (lambda catalog: daily(catalog, 75, "Retitled"), "one"),
        (
            lambda catalog: catalog.apply(
                TranscriptPut(parse_source_key("episodes/daily/e75.vtt"), (Cue(0, 1000, "Hallo.", "Ada"),)),
                SETTINGS.excerpt_chars,
            ),
            "one",
        ),
        (
            lambda catalog: catalog.apply(put_show("daily", show_document(explicit=True)), SETTINGS.excerpt_chars),
            "all",
        ),
    ],
    ids=["an episode retitled", "a companion transcript", "the show's document"],
)
def test_a_kept_run_is_rendered_again_when_what_it_is_rendered_from_changes(change, runs_rendered_again):
    kept, catalog = CountingRuns(), daily_catalog(150)
    runs = len(item_runs(catalog, kept))

    changed = change(catalog)
    kept.rendered = 0
    assert item_runs(changed, kept) == item_runs(changed)
    assert kept.rendered == (1 if runs_rendered_again == "one" else runs)


def test_a_site_of_another_address_renders_every_run_again():
    kept, catalog = CountingRuns(), daily_catalog(60)
    runs = len(item_runs(catalog, kept))
    elsewhere = replace(SETTINGS, site_url="https://elsewhere.example.org")

    kept.rendered = 0
    assert item_runs(catalog, kept, elsewhere) == item_runs(catalog, None, elsewhere)
    assert kept.rendered == runs


def test_an_archive_document_takes_kept_runs_too_and_keeps_its_bytes():
    settings = replace(SETTINGS, feed_max_items=100)
    kept, catalog = CountingRuns(), daily_catalog(250)
    anew = b"".join(feed_archive(catalog, 1, settings).parts())

    assert b"".join(feed_archive(catalog, 1, settings, kept).parts()) == anew
    rendered = kept.rendered
    assert b"".join(feed_archive(catalog, 1, settings, kept).parts()) == anew
    assert kept.rendered == rendered > 0


@pytest.mark.parametrize("pages", [1, KEPT_ARCHIVES, KEPT_ARCHIVES + 1])
def test_only_a_publish_that_rewrites_few_archive_pages_keeps_their_runs(pages):
    # A removal rewrites every page after its episode's, each shifted: their runs were never kept
    settings = replace(SETTINGS, feed_max_items=20)
    kept, catalog = CountingRuns(), daily_catalog(100)

    plan = feed_plan(catalog, Refresh(archives=set(range(1, pages + 1))), settings, kept)

    assert [b"".join(item.parts()) for item in plan.puts] == [
        b"".join(feed_archive(catalog, page, settings).parts()) for page in range(1, pages + 1)
    ]
    assert (len(kept) > 0) == (pages <= KEPT_ARCHIVES)


def test_kept_runs_hold_at_most_their_limit_and_the_one_used_longest_ago_goes_first():
    kept = CountingRuns()
    kept.limit = 10

    kept.items(b"a", lambda: b"12345")
    kept.items(b"b", lambda: b"67890")
    kept.items(b"a", lambda: b"never")  # used again: b is now the one used longest ago
    kept.items(b"c", lambda: b"abcde")
    assert kept.rendered == 3 and len(kept) == 2

    assert kept.items(b"a", lambda: b"never") == b"12345"
    assert kept.items(b"b", lambda: b"67890") == b"67890"  # gone, so rendered again
    assert kept.rendered == 4
    assert kept.items(b"d", lambda: b"longer than ten") == b"longer than ten"
    assert kept.items(b"d", lambda: b"longer than ten") == b"longer than ten"
    assert kept.rendered == 6  # larger than the limit: never kept
