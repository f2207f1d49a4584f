"""The nearby API's catalogs in memory, read from each show's nearby index, its catalog index's first
line: one GET when cold, none while fresh, one conditional GET to revalidate, a changed index picked
up, the index apart or the whole catalog read where an earlier podpages stored the show, and unknown
shows remembered apart from the catalogs; against moto's in-process S3."""

import dataclasses
import json

import boto3
import pytest

from podpages.catalog.layout import cut_pages
from podpages.catalog.stored import page_key_name
from podpages.errors import UnknownShow
from podpages.nearby.cache import MAX_SHOWS, REVALIDATE_AFTER, CatalogCache
from podpages.storage.source_bucket import SourceBucket
from support.catalogs import (
    SETTINGS,
    commit_catalog,
    daily_catalog,
    episode_document,
    indexed,
    put_episode,
    stored,
)
from support.clock import Clock


@pytest.fixture
def gets(s3):
    """Each GetObject the cache sends: the key, and the ETag it offered in If-None-Match."""
    sent: list[tuple[str, str | None]] = []
    s3.meta.events.register(
        "before-parameter-build.s3.GetObject",
        lambda params, **_: sent.append((params["Key"], params.get("IfNoneMatch"))),
    )
    return sent


@pytest.fixture
def ranges(s3):
    """The Range of each GetObject the cache sends with one."""
    sent: list[str] = []
    s3.meta.events.register(
        "before-parameter-build.s3.GetObject",
        lambda params, **_: sent.append(params["Range"]) if "Range" in params else None,
    )
    return sent


@pytest.fixture
def clock():
    return Clock()


INDEX = ("catalog/daily.json", None)  # the first GET of a cold read: the index's first line, by range


def store(source, catalog, feed_max_items=SETTINGS.feed_max_items) -> None:
    """The show's catalog, its nearby index first, as a publish commits it: through a client of its
    own, so that the cache's requests alone are counted."""
    publisher = SourceBucket(boto3.client("s3", region_name="us-east-1"), source.name)
    commit_catalog(publisher, catalog, dataclasses.replace(SETTINGS, feed_max_items=feed_max_items))


def test_a_cold_read_costs_one_get_and_warm_reads_none(source, gets, ranges, clock):
    store(source, daily_catalog(3))
    cache = CatalogCache(source, clock=clock)

    first, revision = cache.get("daily")
    clock.now += REVALIDATE_AFTER - 0.1
    again, same_revision = cache.get("daily")

    assert gets == [INDEX] and ranges == ["bytes=0-262143"]
    assert again is first and same_revision == revision
    assert first.rows == indexed(daily_catalog(3)).rows


def test_an_unchanged_catalog_is_revalidated_with_its_etag_and_kept(source, gets, clock):
    store(source, daily_catalog(3))
    cache = CatalogCache(source, clock=clock)
    first, revision = cache.get("daily")

    clock.now += REVALIDATE_AFTER
    kept, kept_revision = cache.get("daily")
    clock.now += REVALIDATE_AFTER - 0.1
    cache.get("daily")

    assert gets == [INDEX, ("catalog/daily.json", revision)]
    assert kept is first and kept_revision == revision


def test_a_changed_catalog_is_picked_up_at_the_next_revalidation(source, clock):
    store(source, daily_catalog(3))
    cache = CatalogCache(source, clock=clock)
    _first, revision = cache.get("daily")

    store(source, daily_catalog(4))
    still, _ = cache.get("daily")
    clock.now += REVALIDATE_AFTER
    fresh, fresh_revision = cache.get("daily")

    assert len(still.episodes) == 3
    assert len(fresh.episodes) == 4 and fresh_revision != revision


def test_a_show_without_a_catalog_is_unknown_and_costs_one_get_per_revalidation(source, gets, clock):
    cache = CatalogCache(source, clock=clock)

    for _attempt in range(3):
        with pytest.raises(UnknownShow, match="no show 'daily'"):
            cache.get("daily")
    store(source, daily_catalog(1))
    clock.now += REVALIDATE_AFTER

    assert len(cache.get("daily")[0].episodes) == 1
    # No index; once published, its index.
    assert gets == [INDEX, INDEX]


def test_a_deleted_catalog_makes_the_show_unknown_at_the_next_revalidation(source, clock):
    store(source, daily_catalog(1))
    cache = CatalogCache(source, clock=clock)
    cache.get("daily")

    store(source, daily_catalog(0))  # an empty catalog is deleted
    clock.now += REVALIDATE_AFTER

    with pytest.raises(UnknownShow):
        cache.get("daily")


def test_the_cache_holds_at_most_max_shows_dropping_the_one_read_longest_ago(source, gets, clock):
    for show in ("a", "b", "c"):
        store(source, daily_catalog(1, show=show))
    cache = CatalogCache(source, clock=clock, max_shows=2)

    for show in ("a", "b", "c", "c", "b", "a"):
        cache.get(show)

    assert [key for key, _etag in gets] == [f"catalog/{show}.json" for show in ("a", "b", "c", "a")]


def test_unknown_shows_never_push_a_held_catalog_out(source, gets, clock):
    # Given a catalog held, and more unknown shows asked for than the cache holds catalogs
    store(source, daily_catalog(3))
    cache = CatalogCache(source, clock=clock)
    held, _revision = cache.get("daily")
    for number in range(MAX_SHOWS + 1):
        with pytest.raises(UnknownShow):
            cache.get(f"no-such-show-{number}")
    gets.clear()

    # When the held show is asked for again, within the interval
    again, _revision = cache.get("daily")

    # Then the held catalog answers, without a GET
    assert again is held
    assert gets == []


def test_unknown_shows_are_remembered_up_to_their_own_bound_dropping_the_one_found_longest_ago(source, gets, clock):
    # Given a cache that remembers two unknown shows
    cache = CatalogCache(source, clock=clock, max_unknown_shows=2)

    # When three are asked for, then the first and the last again
    for show in ("a", "b", "c", "a", "c"):
        with pytest.raises(UnknownShow):
            cache.get(show)

    # Then the first was forgotten and looked for again; the last was still remembered
    assert [key for key, _etag in gets] == [f"catalog/{show}.json" for show in ("a", "b", "c", "a")]


def test_a_show_published_before_nearby_indexes_is_read_from_its_catalog(source, gets, clock):
    source.write_catalog(*stored(daily_catalog(3)), None)  # as a site published by an earlier podpages holds it
    cache = CatalogCache(source, clock=clock)

    index, _revision = cache.get("daily")

    # Its catalog's first line is not a nearby index, and it has none apart: its catalog is read whole
    assert gets == [INDEX, ("catalog/daily.nearby.json", None), INDEX]
    assert index.rows == indexed(daily_catalog(3)).rows


def test_a_show_stored_with_its_nearby_index_apart_is_read_from_it_until_its_next_commit(s3, source, gets, clock):
    # Given a show as layout 7 stored it: its nearby index an object of its own
    store(source, daily_catalog(3))
    nearby, rest = s3.get_object(Bucket="source-bucket", Key="catalog/daily.json")["Body"].read().split(b"\n", 1)
    fields, head = rest.split(b"\n", 1)
    earlier = json.dumps(json.loads(fields) | {"version": 7}).encode()
    s3.put_object(Bucket="source-bucket", Key="catalog/daily.json", Body=earlier + b"\n" + head)
    apart = json.dumps(json.loads(nearby) | {"version": 3}).encode()
    s3.put_object(Bucket="source-bucket", Key="catalog/daily.nearby.json", Body=apart)
    gets.clear()
    cache = CatalogCache(source, clock=clock)

    # When it is read, cold, then revalidated once a publish commits the show as now
    index, revision = cache.get("daily")
    store(source, daily_catalog(4))
    clock.now += REVALIDATE_AFTER
    fresh, fresh_revision = cache.get("daily")

    # Then it was read from its index apart, then from the catalog's first line
    assert gets == [INDEX, ("catalog/daily.nearby.json", None), ("catalog/daily.json", revision)]
    assert index.rows == indexed(daily_catalog(3)).rows
    assert fresh.rows == indexed(daily_catalog(4)).rows and fresh_revision != revision


def test_a_listing_past_the_feed_reads_the_parts_it_needs_once(source, gets, ranges, clock):
    # Given 47 episodes in frozen pages of 5, and a head of 22
    store(source, daily_catalog(47), feed_max_items=5)
    cache = CatalogCache(source, clock=clock)

    # When an episode of page 4 is listed twice, and then one of the head
    index = cache.listing("daily", "e18", 8)
    cache.listing("daily", "e18", 8)
    cache.listing("daily", "e46", 2)

    # Then the index was read, then the part of the episode's own page, then those of the pages its
    # neighbours are on, once each: each the head of its page's object, read by range
    assert [key.split("-")[:2] for key, _etag in gets] == [
        ["catalog/daily.json"],
        ["catalog/daily/page", "4"],
        ["catalog/daily/page", "3"],
        ["catalog/daily/page", "5"],
    ]
    assert len(ranges) == 4 and all(ranged.startswith("bytes=0-") for ranged in ranges)
    assert [item.slug for item in index.nearby("e18", 8)] == [item.slug for item in daily_catalog(47).nearby("e18", 8)]


def test_a_part_replaced_since_the_index_was_read_sends_the_listing_to_the_newer_index(source, clock):
    # Given a cache holding the index of a show with frozen pages
    store(source, daily_catalog(47), feed_max_items=5)
    cache = CatalogCache(source, clock=clock)
    cache.get("daily")

    # When a publish retitles an episode of page 2, replacing its part, before the index is revalidated
    retitled = daily_catalog(47).apply(
        put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z")), 1500
    )
    store(source, retitled, feed_max_items=5)
    source.delete_catalog_pages(
        "daily", [page_key_name(page.number, page.summary.digest) for page in cut_pages(daily_catalog(47), 5)]
    )

    # Then the listing that needs that part reads the newer index, and answers from it
    index = cache.listing("daily", "e08", 2)
    assert [item.title for item in index.nearby("e08", 2)] == ["Episode 9", "Retitled"]
