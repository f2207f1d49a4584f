"""The nearby index: what the nearby API reads instead of the catalog. It answers exactly as the
catalog would, in a fraction of its bytes, and past the feed's newest episodes in parts, one for each
frozen page, of which a listing reads only those it needs."""

import json

import pytest

from podpages.catalog.feed_archives import frozen_pages
from podpages.catalog.nearby_index import part_digest
from podpages.catalog.stored import slug_hash
from support.catalogs import (
    SETTINGS,
    daily_catalog,
    episode_document,
    example_folder,
    indexed,
    put_episode,
    read_for_listing,
    stored_nearby_index,
)


def listed(index, slug: str, count: int) -> list[tuple]:
    return [(item.slug, item.title, item.published, item.duration) for item in index.nearby(slug, count)]


@pytest.mark.parametrize("feed_max_items", [SETTINGS.feed_max_items, 5, 1])
def test_every_listing_of_every_example_show_reads_back_as_its_catalog_has_it(feed_max_items):
    for catalog in [*example_folder().catalogs.values(), daily_catalog(47)]:
        index, parts = stored_nearby_index(catalog, feed_max_items)
        for entry in catalog.episodes:
            for count in (1, 8, 50):
                read, _pages = read_for_listing(index, parts, entry.slug, count)
                assert listed(read, entry.slug, count) == listed(indexed(catalog), entry.slug, count), entry.slug


def test_a_listing_reads_the_parts_of_its_own_page_and_of_its_neighbours_pages_alone():
    # Given 47 episodes in frozen pages of 5 (5 of them) and a head of 22
    catalog = daily_catalog(47)
    assert frozen_pages(catalog, 5) == 5
    index, parts = stored_nearby_index(catalog, 5)

    # Then a listing whose episodes are all in the head reads no part, and one in page 4 reads the
    # parts of the pages its episodes are on, no more
    assert read_for_listing(index, parts, "e47", 6)[1] == []
    assert read_for_listing(index, parts, "e27", 4)[1] == [5]
    assert sorted(read_for_listing(index, parts, "e18", 8)[1]) == [3, 4, 5]
    assert read_for_listing(index, parts, "e18", 1)[1] == [4]


def test_fractional_durations_and_shows_without_a_document_read_back_as_the_catalog_has_them():
    catalog = daily_catalog(3).apply(
        put_episode("daily", "long", episode_document("Long", duration="PT1H30M0.5S")), 1500
    )

    from_index, _pages = read_for_listing(*stored_nearby_index(catalog, SETTINGS.feed_max_items), "long", 8)

    assert from_index.rows == indexed(catalog).rows
    assert from_index.episode("long").duration == "PT1H30M0.5S" and from_index.episode("long").duration_seconds == 5400
    assert from_index.show_title == "daily"


def test_it_holds_four_fields_an_episode_and_stays_small():
    catalog = daily_catalog(500)

    body, _parts = stored_nearby_index(catalog, SETTINGS.feed_max_items)

    assert json.loads(body)["episodes"][0] == ["e01", "Episode 1", "2025-12-21T09:00:00Z", 245]
    assert len(body) < len(catalog.model_dump_json()) / 5
    assert len(body) / 500 < 60  # bytes an episode, with a short slug and title


def test_past_the_feed_it_holds_six_hex_digits_an_episode():
    # Given 1,047 episodes with a feed of 100: 9 frozen pages of 100 and a head of 147
    catalog = daily_catalog(1047)

    body, parts = stored_nearby_index(catalog, 100)

    stored = json.loads(body)
    assert len(stored["episodes"]) == 147 and len(parts) == 9
    assert [len(hashes) for hashes, *_part in stored["pages"]] == [600] * 9


def test_the_nearby_function_reads_frozen_pages_of_any_counts_by_their_slugs_hashes():
    # Given the 25 frozen episodes of 47 cut again into parts of 3, 7, 1, 9 and 5 episodes, the
    # index saying nothing of how many each part holds but by its hashes
    catalog = daily_catalog(47)
    body, parts = stored_nearby_index(catalog, 5)
    stored = json.loads(body)
    frozen = [row for _hashes, digest, *_head in stored["pages"] for row in json.loads(parts[digest])["episodes"]]
    recut, pages, start = {}, [], 0
    for page, count in enumerate([3, 7, 1, 9, 5], 1):
        rows = frozen[start : start + count]
        part = json.dumps({"version": 2, "show": "daily", "page": page, "episodes": rows}).encode()
        digest = part_digest(part)
        recut[digest] = part
        pages.append(["".join(slug_hash(row[0]) for row in rows), digest])
        start += count
    index = json.dumps(stored | {"pages": pages}).encode()

    # Then every listing reads back as the catalog has it, from the parts of the pages it reaches
    for entry in catalog.episodes:
        for count in (1, 4, 8):
            read, _pages = read_for_listing(index, recut, entry.slug, count)
            assert listed(read, entry.slug, count) == listed(indexed(catalog), entry.slug, count), entry.slug
    assert sorted(read_for_listing(index, recut, "e11", 2)[1]) == [2, 3, 4]
