"""A catalog stored as an index beside its frozen pages and its years' listings, against moto's
in-process S3: a commit writes only the pages and listings that changed, deletes those its index no
longer names, and one that loses its race leaves nothing of its own behind."""

import json

import pytest

from podpages.catalog.fold import fold
from podpages.catalog.layout import LAYOUT_VERSION, cut_pages
from podpages.catalog.nearby_index import nearby_index, part_digest
from podpages.catalog.stored import leading_version, load_nearby_index, load_nearby_part, part_key_name
from podpages.errors import CatalogConflict
from podpages.publish.catalog_store import CatalogStore
from podpages.settings import Settings
from support.catalogs import SITE_URL, commit_catalog, daily_catalog, episode_document, put_episode

PAGED = Settings(site_url=SITE_URL, feed_max_items=5)  # 47 episodes: 5 frozen pages of 5, a head of 22


def keys(source, kind: str) -> set[str]:
    listed = source.client.list_objects_v2(Bucket=source.name, Prefix="catalog/daily/")
    return {item["Key"] for item in listed.get("Contents", []) if f"/{kind}-" in item["Key"]}


def named(store) -> tuple[set[str], set[str]]:
    """The pages (each with its nearby part at its head) and the years' listings that the stored index names."""
    held = store.read("daily", [])
    assert held.index is not None and held.index.years is not None
    pages = enumerate(held.index.pages, 1)
    return (
        {f"catalog/daily/page-{page}-{summary.digest}.json" for page, summary in pages},
        {f"catalog/daily/year-{year}-{digest}.json" for year, digest in held.index.years.items()},
    )


def retitle(catalog, title: str):
    return fold(catalog, [put_episode("daily", "e07", episode_document(title, "2025-12-27T09:00:00Z"))], PAGED).after


def test_an_edit_writes_its_page_alone_and_the_page_it_replaced_goes(source, s3):
    store = CatalogStore(source, PAGED)
    commit_catalog(source, daily_catalog(47), PAGED)
    before = keys(source, "page")
    assert before == named(store)[0] and len(before) == 5

    written = []
    s3.meta.events.register("before-parameter-build.s3.PutObject", lambda params, **_: written.append(params["Key"]))
    held = store.read("daily", [put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z"))])
    store.commit(held, retitle(held.catalog, "Retitled"))

    # The page, with the nearby part at its head, and the listing of the episode's year (which shows
    # its title), written at once, then the index
    *before_index, index = [key.split("/")[-1].split("-")[:2] for key in written]
    assert sorted(before_index) == [["page", "2"], ["year", "2025"]] and index == ["daily.json"]
    assert keys(source, "page") == named(store)[0] and len(keys(source, "page") ^ before) == 2
    assert keys(source, "year") == named(store)[1] and len(named(store)[1]) == 1  # 2026's is in the index
    assert keys(source, "nearby") == set()
    assert store.read("daily").catalog == retitle(daily_catalog(47), "Retitled")


def test_a_commit_that_loses_its_race_leaves_only_what_the_winner_names(source):
    store = CatalogStore(source, PAGED)
    commit_catalog(source, daily_catalog(47), PAGED)
    ours, theirs = store.read("daily"), store.read("daily")

    store.commit(theirs, retitle(theirs.catalog, "Theirs"))
    with pytest.raises(CatalogConflict):
        store.commit(ours, retitle(ours.catalog, "Ours"))

    pages, years = named(store)
    assert keys(source, "page") == pages  # ours, with its nearby part, is gone
    assert keys(source, "year") == years  # ours, with e07 "Ours", is gone
    assert store.read("daily").catalog == retitle(daily_catalog(47), "Theirs")


def test_a_commit_whose_page_fails_to_be_written_keeps_the_index_it_read(source, s3):
    store = CatalogStore(source, PAGED)
    commit_catalog(source, daily_catalog(47), PAGED)
    index_before = source.read_catalog("daily")

    def fail_pages(params, **_):
        if "/page-" in params["Key"]:
            raise ConnectionError("S3 went away")

    s3.meta.events.register("before-parameter-build.s3.PutObject", fail_pages)
    held = store.read("daily")
    with pytest.raises(ConnectionError):
        store.commit(held, retitle(held.catalog, "Retitled"))

    assert source.read_catalog("daily") == index_before
    assert store.read("daily").catalog == daily_catalog(47)


def test_a_commit_writes_the_nearby_index_first_naming_the_pages_and_nearby_parts_the_catalog_makes(source):
    store = CatalogStore(source, PAGED)
    commit_catalog(source, daily_catalog(47), PAGED)
    held = store.read("daily", [put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z"))])
    after = retitle(held.catalog, "Retitled")

    store.commit(held, after)

    # The index's first line is the nearby index the whole catalog makes, naming its frozen pages
    whole = store.read("daily")
    assert whole.index is not None and len(whole.index.pages) == 5
    stored = source.read_first_line("daily")
    assert stored is not None and stored.etag == whole.etag
    assert stored.body == nearby_index(whole.catalog, PAGED.feed_max_items, whole.index.pages, LAYOUT_VERSION)
    assert [page.slugs for page in whole.index.pages] == [page.slugs for page in cut_summaries(whole.catalog)]
    # And each page's object begins with its nearby part, as long as its summary says, which a
    # nearby reader holding the index reads by range
    for number, page in enumerate(load_nearby_index(stored.body)["pages"], 1):
        body = source.read_nearby_part("daily", number, page)
        assert body is not None and load_nearby_part(body)["page"] == number
        assert part_digest(body) == page.digest


def cut_summaries(catalog):
    return [page.summary for page in cut_pages(catalog, PAGED.feed_max_items)]


def test_the_first_commit_over_a_nearby_index_stored_apart_retires_it_and_the_parts_it_names(source, s3):
    # Given a show as layout 6 stored it: its nearby index an object of its own, naming parts apart
    store = CatalogStore(source, PAGED)
    commit_catalog(source, daily_catalog(47), PAGED)
    held = store.read("daily")
    assert held.index is not None
    nearby = json.loads(source.read_first_line("daily").body)
    parts = {part_key_name(number, page.nearby): b"{}" for number, page in enumerate(held.index.pages, 1)}
    for name, body in parts.items():
        s3.put_object(Bucket=source.name, Key=f"catalog/daily/{name}", Body=body)
    apart = nearby | {"version": 2, "pages": [[hashes, digest] for hashes, digest, *_head in nearby["pages"]]}
    s3.put_object(Bucket=source.name, Key="catalog/daily.nearby.json", Body=json.dumps(apart).encode())
    lines = source.read_catalog("daily").body.split(b"\n", 1)[1]  # its fields and head, without the nearby line
    fields, head = lines.split(b"\n", 1)
    hashes = [page[0] for page in nearby["pages"]]
    pages = [page | {"slugs": slugs} for page, slugs in zip(json.loads(fields)["pages"], hashes, strict=True)]
    earlier = json.dumps(json.loads(fields) | {"version": 7, "pages": pages}).encode()
    s3.put_object(Bucket=source.name, Key="catalog/daily.json", Body=earlier + b"\n" + head)

    # When its next commit stores it
    held = store.read("daily", [put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z"))])
    assert held.index is not None and held.index.version == 7
    store.commit(held, retitle(held.catalog, "Retitled"))

    # Then the nearby index is its first line, and the object apart and the parts it named are gone
    assert leading_version(source.read_first_line("daily").body) == LAYOUT_VERSION
    assert source.read_nearby_index("daily") is None
    assert keys(source, "nearby") == set()
    assert keys(source, "page") == named(store)[0]
    assert store.read("daily").catalog == retitle(daily_catalog(47), "Retitled")
