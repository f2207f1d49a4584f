"""A catalog stored as an index beside its frozen pages and its years' listings, against moto's
in-process S3: a commit writes only the pages and listings that changed, deletes those its index no
longer names, and one that loses its race leaves nothing of its own behind."""

import pytest

from podpages.catalog.fold import fold
from podpages.catalog.layout import page_summaries
from podpages.catalog.nearby_index import part_digest
from podpages.catalog.stored import NearbyPage, load_nearby_part
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


def test_a_commit_gives_the_index_s_summaries_which_name_the_pages_and_nearby_parts_the_catalog_makes(source):
    store = CatalogStore(source, PAGED)
    commit_catalog(source, daily_catalog(47), PAGED)
    held = store.read("daily", [put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z"))])
    after = retitle(held.catalog, "Retitled")

    summaries = store.commit(held, after)

    assert summaries == store.read("daily", []).index.pages and len(summaries) == 5
    assert list(summaries) == page_summaries(store.read("daily").catalog, PAGED.feed_max_items)
    # And each page's object begins with its nearby part, as long as its summary says, which a
    # nearby reader holding the index reads by range
    for number, page in enumerate(summaries, 1):
        body = source.read_nearby_part("daily", number, NearbyPage("", page.nearby, page.digest, page.nearby_bytes))
        assert body is not None and load_nearby_part(body)["page"] == number
        assert part_digest(body) == page.nearby
