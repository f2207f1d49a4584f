"""RFC 5005 archives beside the subscription feed: full pages of episodes, oldest first, linked to
the feed and to each other; every episode reachable from feed.xml; and a publish that rewrites only
the pages it changed, so that an incremental site stays the from-scratch one."""

import random

import feedparser
import pytest
from lxml import etree

from podpages import site_paths
from podpages.catalog.changes import EpisodeRemoved, TranscriptPut
from podpages.catalog.feed_archives import SHOW_PAGE_EPISODES, archive_pages, archive_size, frozen_count
from podpages.catalog.fold import fold
from podpages.catalog.staleness import everything
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render.feed import feed, feed_archive
from podpages.render.plans import show_plan
from podpages.settings import Settings
from support.catalogs import SITE_URL, daily_bounds, daily_catalog, episode_document, put_episode
from support.feeds import APPLE_CHANNEL, NS

PAGED = Settings(site_url=SITE_URL, feed_max_items=30)  # pages of 30: the feed's own size
HISTORY = {**NS, "fh": "http://purl.org/syndication/history/1.0"}


def links(body: bytes) -> dict[str, str]:
    channel = etree.fromstring(body).find("channel")
    return {link.get("rel"): link.get("href") for link in channel.xpath("atom:link", namespaces=NS)}


def guids(body: bytes) -> list[str]:
    return etree.fromstring(body).xpath("channel/item/guid/text()")


def archive_url(page: int) -> str:
    return SITE_URL + site_paths.feed_archive("daily", page)


def test_a_show_smaller_than_a_page_has_no_archive_and_its_feed_links_none():
    catalog = daily_catalog(29)

    assert set(links(feed(catalog, PAGED).body)) == {"self"}
    assert everything(catalog, PAGED.feed_max_items).archives == set()


def test_full_pages_are_linked_to_the_feed_and_to_each_other():
    catalog = daily_catalog(95)  # three full pages of 30, and 5 episodes only the feed holds

    first, last = (feed_archive(catalog, page, PAGED) for page in (1, 3))

    assert links(feed(catalog, PAGED).body)["prev-archive"] == archive_url(3)
    assert links(last.body) == {
        "self": archive_url(3),
        "current": f"{SITE_URL}/daily/feed.xml",
        "prev-archive": archive_url(2),
    }
    assert links(first.body) == {
        "self": archive_url(1),
        "current": f"{SITE_URL}/daily/feed.xml",
        "next-archive": archive_url(2),
    }
    assert etree.fromstring(first.body).xpath("channel/fh:archive", namespaces=HISTORY)
    assert not etree.fromstring(feed(catalog, PAGED).body).xpath("channel/fh:archive", namespaces=HISTORY)
    assert first.key == "daily/feed-archive-1.xml" and "s-maxage=2592000" in first.cache_control


def test_a_reader_following_prev_archive_from_the_feed_finds_every_episode_once_per_document():
    catalog = daily_catalog(95)
    documents = {f"{SITE_URL}/daily/feed.xml": feed(catalog, PAGED).body}
    documents |= {archive_url(page): feed_archive(catalog, page, PAGED).body for page in (1, 2, 3)}

    found, url = set(), f"{SITE_URL}/daily/feed.xml"
    while url:
        body = documents[url]
        parsed = feedparser.parse(body)
        assert not parsed.bozo, (url, parsed.get("bozo_exception"))
        for path in APPLE_CHANNEL:
            assert etree.fromstring(body).find("channel").xpath(path, namespaces=NS), (url, path)
        found |= set(guids(body))
        url = links(body).get("prev-archive")

    assert found == {entry.guid for entry in catalog.episodes}


def test_a_feed_of_100_items_or_fewer_pages_in_its_own_size_and_a_larger_one_in_pages_cut_by_content():
    catalog = daily_catalog(400)

    assert len(guids(feed_archive(catalog, 1, PAGED).body)) == 30
    assert len(guids(feed_archive(catalog, 1, Settings(site_url=SITE_URL, feed_max_items=100)).body)) == 100
    # 0: the feed holds all, and the archives page them still
    for feed_max_items in (0, 150, 1000):
        settings = Settings(site_url=SITE_URL, feed_max_items=feed_max_items)
        pages = range(1, archive_pages(catalog, feed_max_items) + 1)
        sizes = [len(guids(feed_archive(catalog, page, settings).body)) for page in pages]
        most = min(200, feed_max_items or 200)
        assert len(sizes) > 1 and all(25 <= size <= most for size in sizes), (feed_max_items, sizes)
        assert len(set(sizes)) > 1
        assert sum(sizes) > 400 - most  # the feed holds the episodes after them


def archive_bodies(catalog) -> dict[str, bytes]:
    return {
        item.key: item.body
        for item in show_plan(catalog, everything(catalog, 30), PAGED, {}).puts
        if "archive" in item.key
    }


@pytest.mark.parametrize(
    ("count", "changed"), [(61, set()), (90, {"daily/feed-archive-2.xml", "daily/feed-archive-3.xml"})]
)
def test_a_new_newest_episode_changes_no_full_page_but_the_one_it_follows(count, changed):
    before = daily_catalog(count - 1)
    newest = episode_document("Newest", "2026-06-01T09:00:00Z")
    after = before.apply(put_episode("daily", "newest", newest), 1500)

    old, new = archive_bodies(before), archive_bodies(after)

    assert {
        key for key in new if old.get(key) != new[key]
    } == changed  # the page it fills, and the one before it links it
    assert fold(before, [put_episode("daily", "newest", newest)], PAGED).refresh.archives == {
        int(key.split("-")[-1].removesuffix(".xml")) for key in changed
    }


def test_an_edit_changes_only_its_own_page():
    before = daily_catalog(95)
    after = before.apply(
        put_episode("daily", "e40", episode_document("Episode 40, retitled", "2026-01-29T09:00:00Z")), 1500
    )

    old, new = archive_bodies(before), archive_bodies(after)

    assert {key for key in new if old[key] != new[key]} == {"daily/feed-archive-2.xml"}


@pytest.mark.parametrize("seed", [3, 11])
def test_publishing_change_by_change_ends_in_the_from_scratch_site(seed):
    rng = random.Random(seed)
    catalog, site = daily_catalog(0), {}
    for step in range(120):
        slug = f"e{rng.randint(1, 80):02d}"
        if rng.random() < 0.2:
            change = EpisodeRemoved(parse_source_key(f"episodes/daily/{slug}.json"))
        else:
            published = f"2026-0{rng.randint(1, 4)}-{rng.randint(10, 28)}T09:00:00Z"
            change = put_episode("daily", slug, episode_document(f"{slug} at {step}", published))
        update = fold(catalog, [change], PAGED)
        plan = show_plan(update.after, update.refresh, PAGED, {})
        site |= {item.key: item.body for item in plan.puts}
        for key in plan.deletes:
            site.pop(key, None)
        catalog = update.after

    expected = {item.key: item.body for item in show_plan(catalog, everything(catalog, 30), PAGED, {}).puts}
    assert len([key for key in expected if "archive" in key]) >= 1
    assert site == expected


def test_a_companion_transcript_changes_the_page_its_episode_is_on():
    before = daily_catalog(95)
    cues = (Cue(0, 1000, "Words.", "Ada"),)
    update = fold(before, [TranscriptPut(parse_source_key("episodes/daily/e05.vtt"), cues)], PAGED)

    old, new = archive_bodies(before), archive_bodies(update.after)

    assert {key for key in new if old[key] != new[key]} == {"daily/feed-archive-1.xml"}
    assert update.refresh.archives == {1}


@pytest.mark.parametrize("feed_max_items", [1, 5, 20, 30, 99, 150, 999, 1000, 1050])
def test_a_page_freezes_only_past_the_feed_and_the_show_page_and_never_at_the_publish_that_fills_one(feed_max_items):
    size = archive_size(feed_max_items)
    reach = max(feed_max_items, SHOW_PAGE_EPISODES)
    bounds = daily_bounds(3 * reach + 4 * size, feed_max_items)
    for count in range(1, 3 * reach + 4 * size):
        frozen = frozen_count(bounds, count, feed_max_items)
        # None of a frozen page's episodes is among the newest the feed or the show page lists
        assert bounds.start(frozen + 1) <= max(0, count - reach)
        # A page freezes at most one publish, and one page, at a time, and never at a publish that
        # fills an archive page, which rewrites two archive documents already
        grew = frozen - frozen_count(bounds, count - 1, feed_max_items)
        assert grew in (0, 1)
        if size > 1 and bounds.ends_at(count):
            assert grew == 0, count
    # And it does not wait longer than a page and a publish
    assert frozen_count(bounds, reach + bounds.stop(1) + 1, feed_max_items) >= 1
