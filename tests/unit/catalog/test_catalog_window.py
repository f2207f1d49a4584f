"""A catalog stored as an index beside its frozen pages (`catalog.layout`), and published a window at
a time (`catalog.window`): whatever a batch holds, folding it into the window a publish reads writes
what folding it into the whole catalog writes, stores the same catalog, and a new newest episode reads
no frozen page."""

import dataclasses
import hashlib
import json
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from podpages.catalog.changes import EpisodeRemoved, TranscriptPut
from podpages.catalog.feed_archives import archive_bounds, archive_entries
from podpages.catalog.fold import fold
from podpages.catalog.layout import (
    LAYOUT_VERSION,
    STORED_APART,
    StoredIndex,
    StoredYear,
    cut_pages,
    join,
    page_key_name,
    read_index,
    read_page,
    split,
    year_key_name,
)
from podpages.catalog.model import Catalog, NotLoaded
from podpages.catalog.nearby_index import nearby_index
from podpages.catalog.spooled_text import SpooledParagraphs, SpooledText, TextSpool
from podpages.catalog.staleness import everything
from podpages.catalog.stored import leading_version
from podpages.catalog.window import WHOLE, Reach, Window, window
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render.plans import show_plan
from podpages.settings import Settings
from support.catalogs import (
    SITE_URL,
    daily_catalog,
    episode_document,
    example_folder,
    put_episode,
    put_show,
    show_document,
)

PAGED = Settings(site_url=SITE_URL, feed_max_items=5, nearby_count=4)  # frozen pages of 5


class Bucket:
    """A catalog as stored: its index, its pages and its years' listings, by name."""

    def __init__(self, catalog, settings=PAGED):
        self.objects: dict[str, bytes] = {}
        self.index = b""
        self.store(catalog, settings)

    def store(self, catalog, settings=PAGED) -> None:
        pages = list(cut_pages(catalog, settings.feed_max_items))
        cut = split(catalog, settings.feed_max_items, {page.number: page.summary for page in pages})
        self.index = b"".join(cut.index())
        self.objects |= {page_key_name(page.number, page.summary.digest): page.body for page in pages}
        self.objects |= {year_key_name(year, digest): body for year, (digest, body) in cut.years.items()}
        self.objects = {name: body for name, body in self.objects.items() if name in cut.names}

    def read(self, changes, settings=PAGED):
        """The window a publish of `changes` reads, and how many frozen pages it read."""
        catalog, reach = self.read_window(changes, settings)
        return catalog, len(reach.pages(len(read_index(self.index.splitlines()).pages)))

    def read_window(self, changes, settings=PAGED, reach=Reach.NEAR):
        """The window a publish of `changes` reads, its long texts set aside as a publish sets them,
        and what it read besides the index."""
        spool = TextSpool()
        index = read_index(self.index.splitlines(), spool)
        read = window(index, changes, settings, reach) if changes is not None else WHOLE
        pages = {
            page: read_page(
                self.objects[page_key_name(page, index.pages[page - 1].digest)], index, spool.context_with_paragraphs
            )
            for page in read.pages(len(index.pages))
        }
        years = {
            year: StoredYear.model_validate_json(self.objects[year_key_name(year, index.years[year])])
            for year in read.years
        }
        return join(index, pages, years), read


def site_of(catalog, settings=PAGED) -> dict[str, bytes]:
    return {
        item.key: item.body
        for item in show_plan(catalog, everything(catalog, settings.feed_max_items), settings, {}).puts
    }


def test_a_catalog_read_whole_is_the_catalog_stored():
    catalog = daily_catalog(47)

    whole, read = Bucket(catalog).read(None)

    assert whole == catalog and read == 5
    assert whole.earlier == ()


def test_a_new_newest_episode_reads_no_frozen_page_and_an_edit_reads_from_its_own():
    # Given 47 episodes in frozen pages of 5 and a head of 22, with nearby lists of 2
    settings = Settings(site_url=SITE_URL, feed_max_items=5, nearby_count=2)
    bucket = Bucket(daily_catalog(47), settings)

    # A new newest episode in a year of its own reads none
    newest = put_episode("daily", "newest", episode_document("Newest", "2027-01-02T09:00:00Z"))
    window, read = bucket.read([newest], settings)
    assert read == 0 and window.offset == 25 and len(window.episodes) == 22

    # One in the year the frozen pages end in reads none either, nor that year's listing, which its
    # archive page shows and the index holds: 2026 starts with e12, in page 3
    newest = put_episode("daily", "newest", episode_document("Newest", "2026-06-01T09:00:00Z"))
    window, reach = bucket.read_window([newest], settings)
    assert reach == Window(first=6)
    assert [episode.slug for episode in window.in_year(2026)][-3:] == ["e14", "e13", "e12"]

    # One back-dated into 2025, which lies wholly in the frozen pages, reads from its page, and the
    # listing of 2025: its archive page lists the episodes of the pages before
    backdated = put_episode("daily", "backdated", episode_document("Back-dated", "2025-12-31T10:00:00Z"))
    window, reach = bucket.read_window([backdated], settings)
    assert reach.first == 2 and reach.years == frozenset({2025})
    assert [episode.slug for episode in window.in_year(2025)][-1] == "e01"

    # An edit reads its own page and those within twice 2 episodes of it (e07 is on page 2), and
    # leaves out the pages after those: its episode keeps its place
    edit = put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z"))
    window, reach = bucket.read_window([edit], settings)
    assert reach.pages(5) == [1, 2, 3] and reach.skip == range(4, 6)
    assert window.count == 47 and len(window.gap) == 2


def test_every_window_an_edit_reads_sees_the_archive_pages_of_the_whole_catalog():
    # Given 47 episodes in frozen pages of 5 and a head of 22, with nearby lists of 2, so that an
    # edit in place reads a few pages, and leaves out those before them and a gap after them
    settings = Settings(site_url=SITE_URL, feed_max_items=5, nearby_count=2)
    whole = daily_catalog(47)
    bucket = Bucket(whole, settings)
    bounds = archive_bounds(whole, 5)
    shapes = set()

    for entry in whole.episodes:
        edit = put_episode("daily", entry.slug, episode_document("Retitled", entry.episode.published.isoformat()))
        window, _reach = bucket.read_window([edit], settings)
        shapes.add((bool(window.earlier), bool(window.gap)))

        # Then it counts the pages it does not hold, and cuts those it holds, where the whole does,
        # and each page it holds has the whole's episodes
        assert archive_bounds(window, 5) == bounds, entry.slug
        for page in range(1, len(bounds) + 1):
            if not window.unheld(page):
                assert archive_entries(window, bounds, page) == archive_entries(whole, bounds, page), (entry.slug, page)

    # Windows with pages left out before those read, after them (a gap), and both
    assert shapes == {(True, False), (False, True), (True, True)}


def test_an_edit_in_place_reads_the_pages_near_its_episode_and_wider_once_it_moves_past_them():
    # Given 100 episodes in pages of 20, three of them frozen, with nearby lists of 2
    settings = Settings(site_url=SITE_URL, feed_max_items=20, nearby_count=2)
    whole = daily_catalog(100, settings=settings)
    bucket = Bucket(whole, settings)
    e30 = whole.entry("e30")
    assert e30 is not None and whole.position("e30") == 29  # the tenth of page 2

    # An edit at its own time reads page 2 alone: the slug hashes place e30 four or more from its ends
    retitled = put_episode("daily", "e30", episode_document("Retitled", f"{e30.episode.published:%Y-%m-%dT%H:%M:%SZ}"))
    window, reach = bucket.read_window([retitled], settings)
    assert reach.pages(3) == [2]
    update, expected = fold(window, [retitled], settings), fold(whole, [retitled], settings)
    assert update.refresh.episodes == expected.refresh.episodes == {"e29", "e30", "e31"}
    bucket.store(update.after, settings)
    assert bucket.read(None, settings)[0] == expected.after
    whole = expected.after

    # One that moves e30 to the end of page 2, an hour after e39, is read near where it was, which
    # proves too narrow: its new neighbours reach page 3. Read by its page's bounds, it folds as in
    # the whole catalog
    moved = put_episode(
        "daily", "e30", episode_document("Moved", f"{whole.entry('e39').episode.published:%Y-%m-%d}T10:00:00Z")
    )
    window, reach = bucket.read_window([moved], settings)
    assert reach.pages(3) == [2]
    with pytest.raises(NotLoaded):
        fold(window, [moved], settings)
    window, reach = bucket.read_window([moved], settings, reach=Reach.PAGES)
    assert reach.pages(3) == [1, 2, 3]
    update, expected = fold(window, [moved], settings), fold(whole, [moved], settings)
    assert update.refresh.episodes == expected.refresh.episodes
    bucket.store(update.after, settings)
    assert bucket.read(None, settings)[0] == expected.after


def change(rng: random.Random, step: int, slugs: list[str]):
    roll = rng.random()
    if roll < 0.35:  # a new newest episode, some days after the one before
        slug = f"n{step:03d}"
        slugs.append(slug)
        published = (datetime(2027, 1, 1, 9, tzinfo=UTC) + timedelta(days=4 * step)).strftime("%Y-%m-%dT%H:%M:%SZ")
        return put_episode("daily", slug, episode_document(f"New {step}", published, **long_texts(step)))
    if roll < 0.4:  # a back-dated one
        slug = f"b{step:03d}"
        slugs.append(slug)
        published = f"2026-0{rng.randint(1, 6)}-{rng.randint(10, 28)}T09:00:00Z"
        return put_episode("daily", slug, episode_document(f"Back-dated {step}", published))
    slug = rng.choice(slugs)
    if roll < 0.5:
        return EpisodeRemoved(parse_source_key(f"episodes/daily/{slug}.json"))
    if roll < 0.6:
        return TranscriptPut(parse_source_key(f"episodes/daily/{slug}.vtt"), (Cue(0, 1000, f"Words {step}.", "Ada"),))
    if roll < 0.65:
        return put_episode(
            "daily", slug, episode_document(f"Trailer {step}", "2026-01-05T09:00:00Z", episode_type="trailer")
        )
    if roll < 0.67:
        return put_show("daily", show_document(f"Daily {step}"))
    published = f"2026-0{rng.randint(1, 6)}-{rng.randint(10, 28)}T09:00:00Z"
    return put_episode("daily", slug, episode_document(f"{slug} at {step}", published, **long_texts(step)))


def long_texts(step: int) -> dict:
    """Show notes, chapters, lists and a transcript's excerpt, which a publish sets aside while it
    holds the catalog (the excerpt, in the frozen pages it reads)."""
    chapters = [{"start": 0, "title": f"Opening {step}"}, {"start": 60, "title": "Ä second"}]
    transcript = f"Ada: Words {step}.\n\nPriya: Ü more."
    return {"notes": f"Notes of *{step}*.", "chapters": chapters, "keywords": [f"k{step}"], "transcript": transcript}


# Pages cut by their episodes' slugs (`feed_archives.cut`): a feed larger than a page of 100.
CUT_BY_CONTENT = Settings(site_url=SITE_URL, feed_max_items=150, nearby_count=4)


@pytest.mark.parametrize(
    ("seed", "settings", "episodes"),
    [*((seed, PAGED, 47) for seed in range(1, 7)), *((seed, CUT_BY_CONTENT, 700) for seed in (1, 2))],
    ids=[
        *(f"pages of 5, seed {seed}" for seed in range(1, 7)),
        *(f"pages cut by content, seed {seed}" for seed in (1, 2)),
    ],
)
def test_publishing_a_window_at_a_time_ends_in_the_whole_catalog_and_its_from_scratch_site(seed, settings, episodes):
    rng = random.Random(seed)
    whole = daily_catalog(episodes)
    bucket, site = Bucket(whole, settings), site_of(whole, settings)
    slugs = [entry.slug for entry in whole.episodes]
    frozen_pages_read, wider = [], Counter()
    for step in range(60):
        changes = [change(rng, step * 10 + n, slugs) for n in range(rng.choice([1, 1, 1, 2, 3]))]
        window, read = bucket.read(changes, settings)
        frozen_pages_read.append(read)

        for reach in Reach:  # as the publisher does, when a window proves too narrow
            window, _read = bucket.read_window(changes, settings, reach=reach)
            try:
                update = fold(window, changes, settings)
                break
            except NotLoaded:
                assert reach is not Reach.TAIL, step
                wider[reach] += 1
        plan = show_plan(update.after, update.refresh, settings, {})
        site |= {item.key: item.body for item in plan.puts}
        for key in plan.deletes:
            site.pop(key, None)
        if update.after != window:
            bucket.store(update.after, settings)
        whole = fold(whole, changes, settings).after

        assert bucket.read(None, settings)[0] == whole, step
    assert site == site_of(whole, settings)
    assert 0 in frozen_pages_read  # some batches needed no frozen page at all
    held = bucket.read(None)[0].episodes
    assert any(isinstance(entry.chapters_json, SpooledText) for entry in held)
    assert any(isinstance(entry.excerpt, SpooledParagraphs) for entry in held)


def publish(bucket: Bucket, whole, site: dict[str, bytes], changes, settings=PAGED):
    """Publish `changes` as the render function does, a window at a time, into `bucket` and `site`;
    the whole catalog after them, and what the publish read besides the index."""
    window, reach = bucket.read_window(changes, settings)
    update = fold(window, changes, settings)
    plan = show_plan(update.after, update.refresh, settings, {})
    site |= {item.key: item.body for item in plan.puts}
    for key in plan.deletes:
        site.pop(key, None)
    bucket.store(update.after, settings)
    return fold(whole, changes, settings).after, reach


@pytest.mark.parametrize(
    "change",
    [
        EpisodeRemoved(parse_source_key("episodes/daily/e01.json")),
        EpisodeRemoved(parse_source_key("episodes/daily/e200.json")),
        put_episode("daily", "back-dated", episode_document("Back-dated", "2026-07-10T21:00:00Z")),
    ],
    ids=["the oldest removed", "one amid the frozen pages removed", "one back-dated into them"],
)
def test_a_removal_or_an_insertion_in_pages_cut_by_content_reads_and_writes_the_pages_near_it_alone(change):
    # Given 1,000 episodes in pages cut by their slugs, with a feed of 300: five of them frozen
    settings = dataclasses.replace(CUT_BY_CONTENT, feed_max_items=300)
    whole = daily_catalog(1000)
    bucket, site = Bucket(whole, settings), site_of(whole, settings)
    frozen = read_index(bucket.index.splitlines()).pages
    before = dict(bucket.objects)

    # When the change is published
    whole, reach = publish(bucket, whole, site, [change], settings)

    # Then it reads its own page, and the one beside it only when its place is near that one (a new
    # episode's page is read alone first: the index keeps no times), and leaves those after unread
    read = reach.pages(len(frozen))
    assert len(frozen) == 5 and len(read) == 1 and reach.skip, reach
    # And of the frozen pages it writes the one it changed alone, with its nearby part: the pages
    # after it keep their episodes, and so their names
    pages_before = {name for name in before if name.startswith("page-")}
    pages_after = {name for name in bucket.objects if name.startswith("page-")}
    assert len(pages_after - pages_before) == 1 and len(pages_before - pages_after) == 1, pages_after - pages_before
    # And the catalog and the site are what the whole catalog makes
    assert bucket.read(None, settings)[0] == whole
    assert site == site_of(whole, settings)


def test_an_edit_in_place_reads_the_listing_of_its_own_year_alone_and_more_once_it_changes_another():
    # Given 420 daily episodes in pages of 5, with nearby lists of 1: pages 1 and 2 end in 2025,
    # page 3 holds e11 of 31 December 2025 and e12 to e15 of 2026, and the frozen pages end in 2027
    settings = Settings(site_url=SITE_URL, feed_max_items=5, nearby_count=1)
    whole = daily_catalog(420)
    bucket, site = Bucket(whole, settings), site_of(whole, settings)
    index = read_index(bucket.index.splitlines())
    assert index.pages[1].last[0].year == 2025 and set(index.pages[2].years) == {2025, 2026}
    assert index.listed_year == 2027 and set(index.years or {}) == {2025, 2026}

    # When e13, of 2026, is retitled at its own time
    e13 = whole.entry("e13")
    assert e13 is not None
    edit = put_episode("daily", "e13", episode_document("Retitled", f"{e13.episode.published:%Y-%m-%dT%H:%M:%SZ}"))
    whole, reach = publish(bucket, whole, site, [edit], settings)

    # Then it reads page 3 and the listing of 2026, whose archive page shows the new title, and not
    # that of 2025, which the edit leaves as it was: the commit keeps its object
    assert reach.pages(len(index.pages)) == [3] and reach.years == frozenset({2026})
    assert (read_index(bucket.index.splitlines()).years or {})[2025] == index.years[2025]
    assert bucket.read(None, settings)[0] == whole
    assert site == site_of(whole, settings)

    # When e11 moves from 2025 into 2026, still on page 3: read near its place, with 2026's
    # listing alone, the fold finds that its commit would tell 2025's anew without having read it
    moved = put_episode("daily", "e11", episode_document("Moved", "2026-01-01T10:00:00Z"))
    window, reach = bucket.read_window([moved], settings)
    assert reach.years == frozenset({2026})
    with pytest.raises(NotLoaded, match="listing of 2025 .* which its commit tells anew"):
        fold(window, [moved], settings)

    # Then, read by its page's bounds as the publisher reads it next, it folds as in the whole catalog
    window, reach = bucket.read_window([moved], settings, reach=Reach.PAGES)
    assert 2025 in reach.years
    update = fold(window, [moved], settings)
    bucket.store(update.after, settings)
    whole = fold(whole, [moved], settings).after
    assert bucket.read(None, settings)[0] == whole
    assert (read_index(bucket.index.splitlines()).years or {})[2025] != index.years[2025]


def test_a_year_that_fills_many_frozen_pages_is_rendered_from_its_listing_without_reading_them():
    # Given 60 episodes, all of 2026: 8 frozen pages of 5 in one year, as an hourly show's year fills 88
    whole = daily_catalog(60, start=datetime(2026, 1, 1, 9, tzinfo=UTC))
    bucket, site = Bucket(whole), site_of(whole)

    for step in range(6):
        # When a new newest episode of 2026 is published: the sixth freezes a ninth page
        newest = put_episode("daily", f"n{step}", episode_document(f"New {step}", f"2026-04-0{step + 1}T09:00:00Z"))
        pages_before = len(read_index(bucket.index.splitlines()).pages)
        whole, reach = publish(bucket, whole, site, [newest])

        # Then it reads no frozen page, nor any year's listing: the index holds that of 2026
        assert reach == Window(first=pages_before + 1), step
        # And the catalog it stores is the whole catalog, with 2026's listing one page longer once it freezes
        assert bucket.read(None)[0] == whole
    index = read_index(bucket.index.splitlines())
    assert len(index.pages) == 9 and index.years == {} and len(index.listed) == 45
    assert not [name for name in bucket.objects if name.startswith("year-")]
    # And the site, the 2026 archive page of 64 episodes with it, is that of a render from scratch
    assert site == site_of(whole)
    assert site["daily/2026/index.html"].count(b"<li><a href") >= 64


def stored_before(index: StoredIndex, version: int, bucket: Bucket) -> bytes:
    """`index` as an earlier podpages stored it: one JSON document without years' listings (version
    2), lines with an object for the listing of the frozen pages' last year too (version 3), or
    as now but with each frozen page's nearby part an object of its own (version 6). Its pages
    begin with their entries."""
    bucket.objects = {
        name: body.split(b"\n", 1)[1] if name.startswith("page-") else body for name, body in bucket.objects.items()
    }
    if version == 6:
        pages = tuple(page.model_copy(update={"nearby_bytes": 0}) for page in index.pages)
        return earlier_lines(index.model_copy(update={"version": 6, "pages": pages}))
    if version == 2:
        bucket.objects = {name: body for name, body in bucket.objects.items() if not name.startswith("year-")}
        return index.model_copy(update={"version": 2}).model_dump_json(exclude={"years", "listed"}).encode()
    listing = StoredYear(show=index.show, year=2026, episodes=index.listed).model_dump_json().encode()
    digest = hashlib.sha256(listing).hexdigest()[:16]
    bucket.objects[year_key_name(2026, digest)] = listing
    years = (index.years or {}) | {2026: digest}
    return earlier_lines(index.model_copy(update={"version": 3, "years": years, "listed": ()}))


def earlier_lines(index: StoredIndex) -> bytes:
    """`index` as podpages stored it a line at a time before version 8: no nearby index on its first
    line, its pages' slug hashes among their fields."""
    lines = [index.model_dump_json(exclude={"episodes"}), *(entry.model_dump_json() for entry in index.episodes)]
    return b"".join(f"{line}\n".encode() for line in lines)


@pytest.mark.parametrize("version", [2, 3, 6])
def test_an_index_an_earlier_podpages_stored_is_read_whole_once_and_cut_again(version):
    # Given a catalog stored by an earlier podpages
    whole = daily_catalog(47)
    bucket, site = Bucket(whole), site_of(whole)
    bucket.index = stored_before(read_index(bucket.index.splitlines()), version, bucket)

    # When a new newest episode is published
    newest = put_episode("daily", "newest", episode_document("Newest", "2026-06-01T09:00:00Z"))
    whole, reach = publish(bucket, whole, site, [newest])

    # Then that publish reads the catalog whole, and stores it with the listing of 2025 apart and
    # that of 2026, the year its frozen pages end in, in the index
    assert reach == WHOLE
    index = read_index(bucket.index.splitlines())
    assert index.version == LAYOUT_VERSION and index.years is not None and set(index.years) == {2025}
    assert {name for name in bucket.objects if name.startswith("year-")} == {year_key_name(2025, index.years[2025])}
    assert [episode.slug for episode in index.listed][:2] == ["e12", "e13"]
    # And the next reads nothing but the index
    later = put_episode("daily", "later", episode_document("Later", "2026-06-02T09:00:00Z"))
    whole, reach = publish(bucket, whole, site, [later])
    assert reach == Window(first=len(index.pages) + 1)
    assert site == site_of(whole)


@pytest.mark.parametrize(
    ("catalog", "settings"),
    [
        (daily_catalog(47), PAGED),
        (daily_catalog(3), PAGED),
        (Catalog(show="empty"), PAGED),
        *((catalog, Settings(site_url=SITE_URL)) for catalog in example_folder().catalogs.values()),
    ],
)
def test_the_index_is_written_a_line_at_a_time_one_head_entry_a_line(catalog, settings):
    # Given a catalog cut for storing
    pieces = list(split(catalog, settings.feed_max_items).index())

    # Then each piece is a line, its version first
    joined = b"".join(pieces)
    assert joined.splitlines(keepends=True) == list(pieces)
    assert leading_version(joined) == LAYOUT_VERSION == 8
    # And its lines, read one at a time, are its nearby index, the index's fields without the
    # pages' slug hashes, which the nearby index holds, and then each entry of its head
    index = read_index(joined.splitlines())
    assert len(pieces) == len(index.episodes) + 2
    nearby = json.loads(pieces[0])
    assert nearby == json.loads(nearby_index(catalog, settings.feed_max_items, index.pages, LAYOUT_VERSION))
    assert [hashes for hashes, *_rest in nearby["pages"]] == [page.slugs for page in index.pages]
    assert json.loads(pieces[1]) == json.loads(index.model_dump_json(exclude=STORED_APART))
    assert [json.loads(piece) for piece in pieces[2:]] == [
        json.loads(entry.model_dump_json()) for entry in index.episodes
    ]


def test_an_index_stored_as_one_json_document_is_read_as_it_was_written():
    # Given an index as podpages stored it before, one document of version 2
    catalog = daily_catalog(47)
    index = read_index(split(catalog, PAGED.feed_max_items).index())
    document = index.model_copy(update={"version": 2}).model_dump_json().encode()
    assert b"\n" not in document

    # Then it reads as the same index, its head with it
    assert read_index([document]) == index.model_copy(update={"version": 2})
    assert len(read_index([document]).episodes) == len(index.episodes) == 22
