"""A show past its feed, on the publish path: each archive page the feed no longer reaches is frozen,
and has a sitemap part and a nearby index part of its own, and each year of the frozen pages a
listing. Publishing new episodes, editing an old one and removing others keeps the site equal to a
from-scratch render, the source bucket holding exactly the pages, listings and parts its indexes
name, and the nearby API answering what each page shows."""

import dataclasses
import hashlib
import json
from datetime import UTC, datetime, timedelta

import pytest
from lxml import html

from podpages.catalog import feed_archives, layout, sitemap_parts, window
from podpages.catalog.feed_archives import SHOW_PAGE_EPISODES, cut
from podpages.catalog.layout import LAYOUT_VERSION
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.stored import load_nearby_index
from podpages.catalog.stored import slug_hash as stored_slug_hash
from podpages.local import template
from podpages.nearby.cache import REVALIDATE_AFTER
from support.catalogs import episode_document, show_document
from support.events import load_event, nearby_request
from support.lambda_context import LambdaContext
from support.queue import deliver


@pytest.fixture
def paged(stack, render_function, nearby, monkeypatch):
    """The stack and both functions with a feed of 5 episodes: archive pages of 5."""
    settings = dataclasses.replace(stack.settings, feed_max_items=5)
    monkeypatch.setattr(stack, "settings", settings)
    monkeypatch.setattr(render_function.publisher, "settings", settings)
    return stack


def work_through_rebuilds(stack):
    batch_size = int(template.queue_events("RenderFunction")["RebuildQueue"]["BatchSize"])
    return deliver(stack.sqs, stack.rebuild_queue_url, stack.handler, batch_size)


def deploy_event(url: str) -> dict:
    return load_event("cfn-update-site-rebuild.json") | {"ResponseURL": url}


def publish(stack, days: range, title: str = "Day") -> None:
    for day in days:
        published = (datetime(2025, 12, 31, 9, tzinfo=UTC) + timedelta(days=10 * day)).strftime("%Y-%m-%dT%H:%M:%SZ")
        document = episode_document(f"{title} {day}", published)
        stack.upload(f"episodes/daily/day-{day:02d}.json", json.dumps(document))
    stack.deliver()


def nearby_parts(stack) -> set[str]:
    return {key for key in stack.keys(stack.source, "catalog/daily/") if "/nearby-" in key}


def named_parts(stack) -> set[str]:
    """The nearby parts the nearby index names as objects of their own: none, since each is the head
    of its page's object, but where an earlier podpages stored them."""
    index = load_nearby_index(nearby_index_of(stack))
    pages = enumerate(index["pages"], 1)
    return {f"catalog/daily/nearby-{number}-{page.digest}.json" for number, page in pages if not page.head}


def nearby_index_of(stack) -> bytes:
    """The show's nearby index: its catalog index's first line, or the object of its own that an
    earlier podpages stored."""
    nearby = stack.catalog_index("daily").get("nearby")
    return json.dumps(nearby).encode() if nearby else stack.read(stack.source, "catalog/daily.nearby.json")


def stored_parts(stack) -> list[bytes]:
    """Each frozen page's nearby part, where the nearby index says it is: at the head of the page's
    object, or in an object of its own, as an earlier podpages stored it."""
    index = load_nearby_index(nearby_index_of(stack))
    return [
        stack.read(stack.source, f"catalog/daily/page-{number}-{page.page}.json")[: page.head]
        if page.head
        else stack.read(stack.source, f"catalog/daily/nearby-{number}-{page.digest}.json")
        for number, page in enumerate(index["pages"], 1)
    ]


def catalog_pages(stack) -> set[str]:
    return {key for key in stack.keys(stack.source, "catalog/daily/") if "/page-" in key}


def named_pages(stack) -> set[str]:
    index = stack.catalog_index("daily")
    return {f"catalog/daily/page-{number}-{page['digest']}.json" for number, page in enumerate(index["pages"], 1)}


def catalog_years(stack) -> set[str]:
    return {key for key in stack.keys(stack.source, "catalog/daily/") if "/year-" in key}


def named_years(stack) -> set[str]:
    index = stack.catalog_index("daily")
    return {f"catalog/daily/year-{year}-{digest}.json" for year, digest in index["years"].items()}


def nearby_links(page: bytes) -> list[tuple[str, str]]:
    links = html.fromstring(page).xpath("//section[@aria-labelledby='nearby']//a")
    return [(link.get("href"), link.text_content()) for link in links]


def check(stack, nearby, folder) -> None:
    """The site is what a from-scratch render builds, the bucket holds the parts the index names and
    no others, and the nearby API lists for every episode what its page lists."""
    assert stack.site_objects() == stack.from_scratch(folder)
    assert nearby_parts(stack) == named_parts(stack)
    assert catalog_pages(stack) == named_pages(stack)
    assert catalog_years(stack) == named_years(stack)
    nearby.clock.now += REVALIDATE_AFTER
    for key in sorted(stack.keys(stack.site, "daily/day-")):
        if key.endswith("/index.html"):
            slug = key.split("/")[1]
            listing = json.loads(nearby(nearby_request("daily", slug))["body"])
            expected = nearby_links(stack.read(stack.site, key))
            assert [(item["url"], item["title"]) for item in listing["items"]] == expected, slug


def test_frozen_pages_follow_every_kind_of_publish(paged, nearby, tmp_path):
    # Given 38 episodes: frozen pages 1 to 3 of 5 episodes, and a head of the 23 newest
    publish(paged, range(1, 39))
    assert len(stored_parts(paged)) == 3 and named_parts(paged) == set()
    assert {key for key in paged.keys(paged.site, "daily/") if "sitemap" in key} == {
        "daily/sitemap.xml",
        "daily/sitemap-2.xml",
        "daily/sitemap-3.xml",
        "daily/sitemap-4.xml",
    }
    check(paged, nearby, tmp_path / "first")

    # When three new episodes freeze a fourth page
    pages = catalog_pages(paged)
    publish(paged, range(39, 42))

    # Then its catalog page, with its nearby part at its head, is added, and the others left as they were
    assert {key.split("-")[1] for key in catalog_pages(paged) - pages} == {"4"}
    assert pages <= catalog_pages(paged)
    assert len(named_pages(paged)) == len(stored_parts(paged)) == 4
    check(paged, nearby, tmp_path / "grown")

    # When an episode of frozen page 2 is retitled
    pages = catalog_pages(paged)
    publish(paged, range(7, 8), title="Retitled")

    # Then that page and its part alone are replaced, the one it replaced gone
    assert {key.split("-")[1] for key in pages ^ catalog_pages(paged)} == {"2"}
    assert len(named_pages(paged)) == 4
    check(paged, nearby, tmp_path / "edited")

    # When an episode of frozen page 1 and the newest are removed, shifting every page after it
    paged.remove("episodes/daily/day-02.json")
    paged.remove("episodes/daily/day-40.json")
    paged.deliver()

    # Then the fourth page is no longer frozen, and its part is gone with the others replaced
    assert len(named_pages(paged)) == len(stored_parts(paged)) == 3
    check(paged, nearby, tmp_path / "removed")


def with_parts_apart(stack, index: dict) -> dict:
    """The show's frozen pages as podpages stored them before index version 7, from those of `index`,
    the index stored now, which it returns as then: each page's object its entries alone, and its
    nearby part an object of its own, which a nearby index of version 2, an object of its
    own, names."""
    index = dict(index)
    nearby = index.pop("nearby")
    pages = []
    for number, page in enumerate(index["pages"], 1):
        key = f"catalog/daily/page-{number}-{page['digest']}.json"
        part, entries = stack.read(stack.source, key).split(b"\n", 1)
        digest = hashlib.sha256(entries).hexdigest()[:16]  # named by its entries alone, as then
        stack.s3.delete_object(Bucket=stack.source, Key=key)
        stack.s3.put_object(Bucket=stack.source, Key=f"catalog/daily/page-{number}-{digest}.json", Body=entries)
        stack.s3.put_object(Bucket=stack.source, Key=f"catalog/daily/nearby-{number}-{page['nearby']}.json", Body=part)
        pages.append({field: value for field, value in page.items() if field != "nearby_bytes"} | {"digest": digest})
    nearby |= {"version": 2, "pages": [[hashes, digest] for hashes, digest, *_head in nearby["pages"]]}
    stack.s3.put_object(Bucket=stack.source, Key="catalog/daily.nearby.json", Body=json.dumps(nearby).encode())
    return index | {"pages": pages}


def as_an_earlier_podpages_stored_it(stack) -> None:
    """The show's catalog in one object and its nearby index whole, every row in it, as podpages
    stored them before either was cut into pages: no page or part beside them."""
    whole = stack.catalogs()["daily"]
    stored = stack.catalog_index("daily")["nearby"]
    rows = [row for part in stored_parts(stack) for row in json.loads(part)["episodes"]]
    index = {"version": 1, "show": "daily", "title": stored["title"], "episodes": [*rows, *stored["episodes"]]}
    stack.s3.put_object(Bucket=stack.source, Key="catalog/daily.nearby.json", Body=json.dumps(index).encode())
    stack.s3.put_object(Bucket=stack.source, Key="catalog/daily.json", Body=whole.model_dump_json().encode())
    gone = [{"Key": key} for key in [*nearby_parts(stack), *catalog_pages(stack), *catalog_years(stack)]]
    stack.s3.delete_objects(Bucket=stack.source, Delete={"Objects": gone})
    assert stack.catalogs()["daily"] == whole


def test_a_show_an_earlier_podpages_stored_whole_is_served_then_cut_by_its_next_publish(paged, nearby, tmp_path):
    # Given a show as an earlier podpages stored it
    publish(paged, range(1, 39))
    as_an_earlier_podpages_stored_it(paged)

    # Then the nearby API answers from its whole index
    nearby.clock.now += REVALIDATE_AFTER
    listing = json.loads(nearby(nearby_request("daily", "day-03", {"limit": "2"}))["body"])
    assert [item["slug"] for item in listing["items"]] == ["day-04", "day-02"]

    # When the next episode is published, the catalog and the nearby index are cut into their pages
    publish(paged, range(39, 40))
    assert len(stored_parts(paged)) == len(named_pages(paged)) == 3
    check(paged, nearby, tmp_path)


def test_a_new_newest_episode_reads_and_writes_no_frozen_page(paged, nearby, s3_calls, tmp_path):
    # Given 38 episodes ten days apart, three frozen pages of them, all of 2026
    publish(paged, range(1, 39))
    s3_calls.clear()

    # When the next is published, in 2027
    publish(paged, range(39, 40))

    # Then no frozen page of the catalog, nor part of the nearby index, was read or written
    touched = [key for _operation, key in s3_calls if key.startswith("catalog/daily/")]
    assert touched == []
    # And the site's sitemap index was not read, since the show's sitemap parts stayed as many
    assert site_index_calls(s3_calls) == []
    check(paged, nearby, tmp_path)


def site_index_calls(s3_calls) -> list[tuple[str, str]]:
    return [call for call in s3_calls if call[1] == "sitemap.xml" or call[0] == "ListObjectsV2"]


def sitemap_locations(stack, key: str) -> list[str]:
    """The locations a sitemap or a sitemap index lists."""
    return html.fromstring(stack.read(stack.site, key)).xpath("//loc/text()")


def test_no_publish_both_fills_an_archive_page_and_freezes_one_nor_freezes_one_and_indexes_its_part(
    paged, nearby, s3_calls, tmp_path
):
    # Given 39 episodes ten days apart, three frozen pages of them
    publish(paged, range(1, 40))
    s3_calls.clear()

    # When the 40th is published, filling the eighth archive page
    publish(paged, range(40, 41))

    # Then it writes that archive document and the one before it, for its next-archive link, and
    # nothing of the catalog but its index
    written = [key for operation, key in s3_calls if operation == "PutObject"]
    assert sorted(key for key in written if "feed-archive" in key) == [
        "daily/feed-archive-7.xml",
        "daily/feed-archive-8.xml",
    ]
    assert [key for key in written if key.startswith("catalog/daily/")] == []
    assert len(named_pages(paged)) == 3
    check(paged, nearby, tmp_path / "filled")
    s3_calls.clear()

    # When the 41st is published, and the head's oldest five freeze into a fourth page
    publish(paged, range(41, 42))

    # Then the page, with its nearby part at its head, is written beside the index, which holds the
    # listing of their year, and so is the page's sitemap part; nothing else of the catalog is read or deleted
    written = [key for operation, key in s3_calls if operation == "PutObject"]
    catalog = [key.split("/")[-1].split("-")[0] for key in written if key.startswith("catalog/daily/")]
    assert catalog == ["page"]
    assert [call for call in s3_calls if call[1].startswith("catalog/daily/") and call[0] != "PutObject"] == []
    assert len(paged.catalog_index("daily")["listed"]) == 20
    assert "daily/sitemap-5.xml" in written
    # And the site's sitemap index is neither read nor written: it lists the new part from the next
    # publish, and until then the show's first part lists the page's episodes still
    assert site_index_calls(s3_calls) == []
    assert [key for key in written if "/" not in key or "feed-archive" in key] == []
    assert f"{paged.settings.site_url}/daily/sitemap-5.xml" not in sitemap_locations(paged, "sitemap.xml")
    assert f"{paged.settings.site_url}/daily/day-16/" in sitemap_locations(paged, "daily/sitemap.xml")
    assert len(named_pages(paged)) == 4
    check(paged, nearby, tmp_path / "frozen")
    s3_calls.clear()

    # When the 42nd is published
    publish(paged, range(42, 43))

    # Then the site's sitemap index is read and written again, and lists the part, and the show's
    # first part lists the page's episodes no more; nothing of the catalog but its index is touched
    assert site_index_calls(s3_calls) == [("GetObject", "sitemap.xml"), ("PutObject", "sitemap.xml")]
    assert f"{paged.settings.site_url}/daily/sitemap-5.xml" in sitemap_locations(paged, "sitemap.xml")
    assert f"{paged.settings.site_url}/daily/day-16/" not in sitemap_locations(paged, "daily/sitemap.xml")
    assert [call for call in s3_calls if call[1].startswith("catalog/daily/")] == []
    check(paged, nearby, tmp_path / "indexed")


def test_an_edit_of_an_episode_the_show_page_does_not_list_writes_neither_it_nor_the_first_sitemap_part(
    paged, nearby, s3_calls, tmp_path
):
    # Given 38 episodes ten days apart: the head holds the 16th to the 38th, the show page the newest 20
    publish(paged, range(1, 39))
    s3_calls.clear()

    # When the 17th is retitled, at the time it had
    publish(paged, range(17, 18), title="Retitled")

    # Then its page, its neighbours' and its year's are written, but neither the show page nor the
    # show's first sitemap part, whose bytes stay as they were
    written = [key for operation, key in s3_calls if operation == "PutObject"]
    assert {"daily/day-16/index.html", "daily/day-17/index.html", "daily/2026/index.html"} <= set(written)
    assert "daily/index.html" not in written and "daily/sitemap.xml" not in written
    check(paged, nearby, tmp_path)


def catalog_reads(s3_calls) -> list[str]:
    """The frozen pages and years' listings read, by kind and number: `page-2`, `year-2026`."""
    names = [key.split("/")[-1] for operation, key in s3_calls if operation == "GetObject" and "catalog/daily/" in key]
    return sorted("-".join(name.split("-")[:2]) for name in names)


def test_an_edit_of_an_old_episode_reads_the_pages_beside_its_own_and_none_after_them(
    paged, nearby, s3_calls, tmp_path
):
    # Given 80 episodes ten days apart, eleven frozen pages of five
    publish(paged, range(1, 81))
    assert len(named_pages(paged)) == 11
    s3_calls.clear()

    # When the 2nd is retitled, at its own time
    publish(paged, range(2, 3), title="Retitled")

    # Then the publish reads its page and the three after it, which hold the episodes within twice
    # NEARBY_COUNT (8) of its place (the index's slug hashes give it: the 18th is on page 4), and
    # not the seven after those, but the listing of 2026, the year those begin in, which it tells
    # anew; it writes its page, with its nearby part at its head
    assert catalog_reads(s3_calls) == [*(f"page-{number}" for number in range(1, 5)), "year-2026"]
    written = [key.split("/")[-1].split("-")[:2] for operation, key in s3_calls if operation == "PutObject"]
    assert sorted(name for name in written if name[0] in ("page", "nearby")) == [["page", "1"]]
    # And it deletes the page it replaced in one request, its last, with the error reports of
    # what it published and the show's lease: the bucket then holds those the indexes name and no
    # others
    operations = [operation for operation, _key in s3_calls]
    assert operations.count("DeleteObjects") == 1 and operations[-1] == "DeleteObjects"
    assert "DeleteObject" not in operations
    check(paged, nearby, tmp_path / "retitled")
    s3_calls.clear()

    # When the 25th, the last of page 5, is moved earlier in its page, between the 20th and the 21st
    document = episode_document("Moved", (datetime(2025, 12, 31, 9, tzinfo=UTC) + timedelta(days=205)).isoformat())
    paged.upload("episodes/daily/day-25.json", json.dumps(document))
    paged.deliver()

    # Then it is read near its old place first (pages 2 to 9), which proves too narrow: the lists of
    # its new neighbours reach the 5th, on page 1. So it is read again by its page's bounds, from
    # page 1; and the site follows
    pages = [name for name in catalog_reads(s3_calls) if name.startswith("page-")]
    assert sorted(pages, key=lambda name: int(name[5:])) == sorted(
        (f"page-{number}" for number in (*range(2, 10), *range(1, 10))), key=lambda name: int(name[5:])
    )
    check(paged, nearby, tmp_path / "moved-in-its-page")
    s3_calls.clear()

    # When it is moved later, between the 6th and the 7th, and stays in the frozen pages
    document = episode_document("Moved", (datetime(2025, 12, 31, 9, tzinfo=UTC) + timedelta(days=65)).isoformat())
    paged.upload("episodes/daily/day-02.json", json.dumps(document))
    paged.deliver()

    # Then it reads the pages from its old one to those beside its new one, and the site follows
    assert catalog_reads(s3_calls) == [*(f"page-{number}" for number in range(1, 7)), "year-2026"]
    check(paged, nearby, tmp_path / "moved")


def test_an_edit_in_place_reads_no_listing_of_the_years_it_leaves_as_they_were_and_more_once_it_moves_a_year(
    paged, nearby, s3_calls, tmp_path
):
    # Given 80 episodes ten days apart, eleven frozen pages of five: page 8 holds the 36th, of
    # 26 December 2026, and the 37th to the 40th, of 2027; the pages before end in 2026, whose
    # listing is an object of its own (the index holds 2027's, where the frozen pages end)
    publish(paged, range(1, 81))
    years_before = named_years(paged)
    assert [key.split("/")[-1][:9] for key in years_before] == ["year-2026"]
    s3_calls.clear()

    # When the 38th, of 2027, is retitled at its own time
    publish(paged, range(38, 39), title="Retitled")

    # Then it reads the pages within twice NEARBY_COUNT of it, and no year's listing: 2027's lies
    # wholly in them, and 2026's, which the pages before share, is the same, so the commit keeps it
    assert catalog_reads(s3_calls) == [f"page-{number}" for number in (10, 11, *range(5, 10))]
    assert named_years(paged) == years_before
    check(paged, nearby, tmp_path / "retitled")
    s3_calls.clear()

    # When the 36th moves into 2027, between the 37th and the 38th, still on page 8
    document = episode_document("Moved", "2027-01-06T09:00:00Z")
    paged.upload("episodes/daily/day-36.json", json.dumps(document))
    paged.deliver()

    # Then the pages near it read alone prove too narrow, since 2026's listing loses it: the publish
    # reads again, by its page's bounds, with that listing, and writes it anew; the site follows
    reads = catalog_reads(s3_calls)
    assert reads.count("page-8") == 2 and reads.count("year-2026") == 1, reads
    assert named_years(paged) != years_before
    check(paged, nearby, tmp_path / "moved")


def test_an_edit_whose_slug_a_frozen_page_seems_to_hold_is_read_on_to_the_last_page(
    paged, nearby, s3_calls, monkeypatch, tmp_path
):
    # Given 80 episodes ten days apart, eleven frozen pages of five
    publish(paged, range(1, 81))
    s3_calls.clear()

    # When a new episode is published into the second page, its slug's hash that of the 8th there
    def colliding(slug):
        return stored_slug_hash("day-08" if slug == "day-99" else slug)

    monkeypatch.setattr(window, "slug_hash", colliding)
    document = episode_document("Inserted", (datetime(2025, 12, 31, 9, tzinfo=UTC) + timedelta(days=75)).isoformat())
    paged.upload("episodes/daily/day-99.json", json.dumps(document))
    paged.deliver()

    # Then the publish reads the pages near the 8th, then those beside the second, finds the episode
    # new each time, and reads on to the last page, since every page after it moves; the site is
    # what a from-scratch render builds
    near = [*(f"page-{number}" for number in range(1, 6)), "year-2026"]
    beside = [*(f"page-{number}" for number in range(1, 7)), "year-2026"]
    assert catalog_reads(s3_calls) == sorted([*near, *beside, *(f"page-{number}" for number in range(1, 12))])
    check(paged, nearby, tmp_path)


def test_an_edit_that_follows_a_freeze_reads_the_page_whose_episodes_the_first_sitemap_part_lists(
    paged, nearby, s3_calls, tmp_path
):
    # Given 41 episodes ten days apart, the 41st of which froze a fourth page
    publish(paged, range(1, 42))
    s3_calls.clear()

    # When the newest is edited, which leaves the count where it is
    publish(paged, range(41, 42), title="Edited")

    # Then the publish reads that page, since the show's first sitemap part lists its episodes
    # still, and the site's sitemap index stays as it was
    read = [key for operation, key in s3_calls if operation == "GetObject" and key.startswith("catalog/daily/")]
    assert [key.split("/")[-1].split("-")[:2] for key in read] == [["page", "4"]]
    assert site_index_calls(s3_calls) == []
    assert f"{paged.settings.site_url}/daily/day-16/" in sitemap_locations(paged, "daily/sitemap.xml")
    check(paged, nearby, tmp_path)


def test_an_episode_of_the_year_the_frozen_pages_end_in_reads_no_page_nor_listing(paged, nearby, s3_calls, tmp_path):
    # Given 38 episodes ten days apart, three frozen pages of them, all of 2026
    publish(paged, range(1, 39))
    s3_calls.clear()

    # When one more of 2026 is published, into the head, whose year's archive page lists the frozen
    # pages' episodes too
    paged.upload("episodes/daily/late.json", json.dumps(episode_document("Late in 2026", "2026-12-01T09:00:00Z")))
    paged.deliver()

    # Then no frozen page, listing or nearby part is read or written: the index holds 2026's listing
    touched = [(operation, key.split("/")[-1][:9]) for operation, key in s3_calls if key.startswith("catalog/daily/")]
    assert touched == []
    assert b"Day 1</a>" in paged.read(paged.site, "daily/2026/index.html")
    check(paged, nearby, tmp_path)


@pytest.mark.parametrize("version", [2, 3])
def test_a_catalog_an_earlier_podpages_stored_takes_the_listing_of_its_last_year_from_the_deploy_rebuild(
    paged, nearby, rebuild_function, response_url, tmp_path, version
):
    # Given a show whose index names no listing (version 2), or names the listing of 2026 as an
    # object of its own (version 3), as earlier podpages stored them
    publish(paged, range(1, 39))
    whole, before = paged.catalogs()["daily"], paged.site_objects()
    index = with_parts_apart(paged, paged.catalog_index("daily"))
    listed = index.pop("listed")
    if version == 2:  # one JSON document
        del index["years"]
        paged.s3.put_object(Bucket=paged.source, Key="catalog/daily.json", Body=json.dumps(index | {"version": 2}))
    else:
        listing = json.dumps({"version": 2, "show": "daily", "year": 2026, "episodes": listed}).encode()
        digest = hashlib.sha256(listing).hexdigest()[:16]
        paged.s3.put_object(Bucket=paged.source, Key=f"catalog/daily/year-2026-{digest}.json", Body=listing)
        paged.write_catalog_index("daily", index | {"version": 3, "years": {"2026": digest}})

    # When the deploy rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(paged).failed == []

    # Then the index holds the listing of 2026, which its three frozen pages hold, and names no
    # other; the object of version 3 is gone; and the site is as it was
    assert paged.catalog_index("daily")["years"] == {}
    assert [episode["slug"] for episode in paged.catalog_index("daily")["listed"]][:2] == ["day-01", "day-02"]
    assert catalog_years(paged) == set()
    assert paged.catalogs()["daily"] == whole
    assert paged.site_objects() == before
    check(paged, nearby, tmp_path)


@pytest.mark.parametrize("version", [6, 7])
def test_a_nearby_index_an_earlier_podpages_stored_apart_goes_to_the_catalog_index_on_the_deploy_rebuild(
    paged, nearby, rebuild_function, response_url, tmp_path, version
):
    # Given 38 episodes as index version 7 stored them, the nearby index an object of its own; or as
    # version 6 did, each of the three frozen pages' nearby parts an object of its own too, which a
    # nearby index of version 2 names
    publish(paged, range(1, 39))
    whole, before = paged.catalogs()["daily"], paged.site_objects()
    index = paged.catalog_index("daily")
    paged.write_catalog_index(
        "daily", (with_parts_apart(paged, index) if version == 6 else index) | {"version": version}
    )
    parts_apart = nearby_parts(paged)
    assert len(parts_apart) == (3 if version == 6 else 0) and named_parts(paged) == parts_apart
    assert "nearby" not in paged.catalog_index("daily")

    # Then the nearby API answers from them
    nearby.clock.now += REVALIDATE_AFTER
    listing = json.loads(nearby(nearby_request("daily", "day-03", {"limit": "2"}))["body"])
    assert [item["slug"] for item in listing["items"]] == ["day-04", "day-02"]

    # When the deploy rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(paged).failed == []

    # Then the catalog index begins with the nearby index, which names each part at the head of its
    # page's object; the index and the parts apart are gone; and the catalog and the site are as they were
    assert paged.catalog_index("daily")["version"] == LAYOUT_VERSION
    assert nearby_parts(paged) == set() and named_parts(paged) == set()
    assert "catalog/daily.nearby.json" not in paged.keys(paged.source, "catalog/")
    assert len(stored_parts(paged)) == len(named_pages(paged)) == 3
    assert paged.catalogs()["daily"] == whole
    assert paged.site_objects() == before
    check(paged, nearby, tmp_path)


def test_catalogs_an_earlier_podpages_stored_in_one_object_are_cut_by_the_deploy_rebuild(
    paged, nearby, rebuild_function, response_url, tmp_path
):
    # Given a show as an earlier podpages stored it
    publish(paged, range(1, 39))
    whole = paged.catalogs()["daily"]
    before = paged.site_objects()
    as_an_earlier_podpages_stored_it(paged)

    # When the deploy rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(paged).failed == []

    # Then the catalog is an index beside its 3 frozen pages, holding what it held, and the site is
    # what it was, and what a from-scratch render builds
    assert paged.catalog_index("daily")["version"] == LAYOUT_VERSION
    assert len(named_pages(paged)) == 3
    assert paged.catalogs()["daily"] == whole
    assert paged.site_objects() == before
    check(paged, nearby, tmp_path)


def as_podpages_4_froze_pages(patch: pytest.MonkeyPatch) -> None:
    """Pages freeze as they did in index version 4: in the very publish that fills an archive page;
    and as then, the site's sitemap index lists each frozen page's part from that publish on."""

    def frozen_count(bounds: PageBounds, count: int, feed_max_items: int) -> int:
        reach = max(feed_max_items, SHOW_PAGE_EPISODES)
        return bounds.page_of(count - reach) - 1 if feed_max_items else 0

    for module in (feed_archives, layout, window, sitemap_parts):
        patch.setattr(module, "frozen_count", frozen_count)
    for module in (window, sitemap_parts):
        patch.setattr(module, "indexed_count", frozen_count)


def test_pages_of_a_fixed_size_are_cut_again_by_content_on_the_deploy_rebuild(
    stack, render_function, nearby, rebuild_function, response_url, monkeypatch, tmp_path
):
    # Given 420 episodes with a feed of 150, published as index version 5 cut them: in pages of 100
    settings = dataclasses.replace(stack.settings, feed_max_items=150)
    monkeypatch.setattr(stack, "settings", settings)
    monkeypatch.setattr(render_function.publisher, "settings", settings)
    with pytest.MonkeyPatch.context() as patch:
        for module in (feed_archives, window):
            patch.setattr(module, "cut", lambda slugs, feed_max_items: [100] * (len(slugs) // 100))
        publish(stack, range(1, 421))
    stack.write_catalog_index("daily", with_parts_apart(stack, stack.catalog_index("daily")) | {"version": 5})
    assert [page["count"] for page in stack.catalog_index("daily")["pages"]] == [100, 100]
    whole = stack.catalogs()["daily"]

    # When the deploy rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(stack).failed == []

    # Then its frozen pages are cut by their episodes' slugs, and the site, with every archive
    # document, is what a from-scratch render builds, with nothing of the pages of 100 left
    counts = [page["count"] for page in stack.catalog_index("daily")["pages"]]
    assert stack.catalog_index("daily")["version"] == LAYOUT_VERSION and counts != [100, 100]
    assert counts == cut([entry.slug for entry in whole.episodes], 150)[: len(counts)]
    assert stack.catalogs()["daily"] == whole
    check(stack, nearby, tmp_path)


def test_a_page_frozen_in_the_publish_that_filled_its_archive_page_is_taken_back_by_the_deploy_rebuild(
    paged, nearby, rebuild_function, response_url, tmp_path
):
    # Given 40 episodes as index version 4 stored them: the 40th, filling the eighth archive page,
    # froze a fourth page
    with pytest.MonkeyPatch.context() as patch:
        as_podpages_4_froze_pages(patch)
        publish(paged, range(1, 41))
    paged.write_catalog_index("daily", with_parts_apart(paged, paged.catalog_index("daily")) | {"version": 4})
    assert len(named_pages(paged)) == 4
    whole = paged.catalogs()["daily"]

    # When the deploy rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(paged).failed == []

    # Then the fourth page is back in the head, its catalog page, nearby part and sitemap part gone,
    # and the site is what a from-scratch render builds
    assert paged.catalog_index("daily")["version"] == LAYOUT_VERSION
    assert len(named_pages(paged)) == 3
    assert paged.catalogs()["daily"] == whole
    assert "daily/sitemap-5.xml" not in paged.keys(paged.site, "daily/")
    check(paged, nearby, tmp_path)


def test_a_page_an_earlier_podpages_indexed_in_the_publish_that_froze_it_is_listed_as_now_after_the_deploy(
    paged, nearby, rebuild_function, response_url, tmp_path
):
    # Given 41 episodes published by a podpages that listed a page's sitemap part in the site's
    # sitemap index from the publish that froze it, the 41st having frozen a fourth page
    with pytest.MonkeyPatch.context() as patch:
        for module in (window, sitemap_parts):
            patch.setattr(module, "indexed_count", sitemap_parts.frozen_count)
        publish(paged, range(1, 42))
    assert f"{paged.settings.site_url}/daily/sitemap-5.xml" in sitemap_locations(paged, "sitemap.xml")

    # When the deploy rebuilds every show
    rebuild_function.lambda_handler(deploy_event(response_url.url), LambdaContext("RebuildFunction"))
    assert work_through_rebuilds(paged).failed == []

    # Then the show's first part lists the page's episodes, the index lists the part from the next
    # publish, and the site is what a from-scratch render builds
    assert f"{paged.settings.site_url}/daily/sitemap-5.xml" not in sitemap_locations(paged, "sitemap.xml")
    assert f"{paged.settings.site_url}/daily/day-16/" in sitemap_locations(paged, "daily/sitemap.xml")
    check(paged, nearby, tmp_path / "rebuilt")
    publish(paged, range(42, 43))
    assert f"{paged.settings.site_url}/daily/sitemap-5.xml" in sitemap_locations(paged, "sitemap.xml")
    check(paged, nearby, tmp_path / "published")


def test_a_show_whose_catalog_is_deleted_is_published_again_by_copying_each_upload_onto_itself(paged, nearby, tmp_path):
    # Given a show with three frozen pages, a year listing and a nearby index of parts, and a
    # document of its own
    paged.upload("shows/daily.json", json.dumps(show_document("Daily")))
    publish(paged, range(1, 39))
    whole, before = paged.catalogs()["daily"], paged.site_objects()

    # When the README's way back past a catalog layout is followed: the source bucket's catalog/
    # deleted, then each upload copied onto itself, which S3 takes only with its metadata replaced
    stored = sorted(paged.keys(paged.source, "catalog/"))
    paged.s3.delete_objects(Bucket=paged.source, Delete={"Objects": [{"Key": key} for key in stored]})
    for key in sorted(paged.keys(paged.source, "shows/") | paged.keys(paged.source, "episodes/")):
        source = {"Bucket": paged.source, "Key": key}
        paged.s3.copy_object(Bucket=paged.source, Key=key, CopySource=source, MetadataDirective="REPLACE")
    assert paged.deliver().failed == []

    # Then the catalog, its pages and parts are stored again as they were, and the site is what it was
    assert sorted(paged.keys(paged.source, "catalog/")) == stored
    assert paged.catalogs()["daily"] == whole
    assert paged.site_objects() == before
    check(paged, nearby, tmp_path)
