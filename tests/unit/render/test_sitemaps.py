"""Sitemaps and robots.txt: every page listed, lastmod from the inputs, robots naming the index,
and a show's sitemap cut into parts of at most MAX_SITEMAP_URLS URLs that the index all lists."""

import pytest
from lxml import etree

from podpages.catalog import sitemap_parts as parts
from podpages.catalog.changes import EpisodeRemoved
from podpages.catalog.feed_archives import archive_size, frozen_count
from podpages.catalog.fold import fold
from podpages.catalog.sitemap_parts import sitemap_parts
from podpages.catalog.staleness import everything
from podpages.contract.source_keys import parse_source_key
from podpages.render import sitemaps
from podpages.render.plans import show_plan, site_plan
from podpages.render.whole_site import render_site
from podpages.settings import Settings
from support.catalogs import SETTINGS, daily_bounds, daily_catalog, episode_document, put_episode

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def urls(body: bytes) -> list[tuple[str, str]]:
    """Each URL of a sitemap, with its lastmod."""
    return [
        (url.findtext("sm:loc", namespaces=NS), url.findtext("sm:lastmod", namespaces=NS))
        for url in etree.fromstring(body).iterfind("sm:url", namespaces=NS)
    ]


def site(*catalogs) -> dict[str, bytes]:
    """What a from-scratch render publishes for these catalogs, by key."""
    plans = render_site({catalog.show: catalog for catalog in catalogs}, {}, SETTINGS)
    return {item.key: item.body for _label, plan in plans for item in plan.puts}


def indexed(site_objects: dict[str, bytes]) -> list[str]:
    return etree.fromstring(site_objects["sitemap.xml"]).xpath("//sm:sitemap/sm:loc/text()", namespaces=NS)


@pytest.fixture
def limit_of_five(monkeypatch):
    monkeypatch.setattr(parts, "MAX_SITEMAP_URLS", 5)


def test_a_show_sitemap_lists_its_page_its_years_and_every_episode_with_lastmod_from_published():
    catalog = daily_catalog(12)

    lastmod = dict(urls(sitemaps.show_sitemap(catalog, SETTINGS).body))

    assert lastmod[f"{SETTINGS.site_url}/daily/"] == "2026-01-01T09:00:00Z"
    assert lastmod[f"{SETTINGS.site_url}/daily/2025/"] == "2025-12-31T09:00:00Z"
    assert lastmod[f"{SETTINGS.site_url}/daily/2026/"] == "2026-01-01T09:00:00Z"
    assert lastmod[f"{SETTINGS.site_url}/daily/e01/"] == "2025-12-21T09:00:00Z"
    assert len(lastmod) == 1 + 2 + 12


def test_the_protocol_limit_is_fifty_thousand_urls_per_sitemap():
    assert parts.MAX_SITEMAP_URLS == 50_000


def test_a_show_past_the_limit_is_split_in_order_into_parts_at_their_own_paths(monkeypatch):
    # Given a show of 1 page, 2 years and 13 episodes: 16 URLs, in one sitemap under the real limit
    catalog = daily_catalog(13)
    whole = urls(sitemaps.show_sitemap(catalog, SETTINGS).body)

    # When a sitemap may hold only 5
    monkeypatch.setattr(parts, "MAX_SITEMAP_URLS", 5)
    written = sitemaps.show_sitemaps(catalog, SETTINGS)

    # Then it takes 4 parts, the first where the one sitemap was, each within the limit,
    # together listing the same URLs with the same lastmod in the same order
    assert [part.key for part in written] == [
        "daily/sitemap.xml",
        "daily/sitemap-2.xml",
        "daily/sitemap-3.xml",
        "daily/sitemap-4.xml",
    ]
    assert [len(urls(part.body)) for part in written] == [5, 5, 5, 1]
    assert [url for part in written for url in urls(part.body)] == whole
    assert sitemap_parts(catalog, SETTINGS.feed_max_items) == 4


def test_a_show_of_exactly_the_limit_keeps_one_sitemap(limit_of_five):
    # Given a show of 1 page, 1 year and 3 episodes: 5 URLs
    catalog = daily_catalog(3)

    # When its site is rendered
    published = site(catalog)

    # Then one sitemap holds them all, and the index lists it alone
    assert len(urls(published["daily/sitemap.xml"])) == 5
    assert "daily/sitemap-2.xml" not in published
    assert indexed(published) == [f"{SETTINGS.site_url}/daily/sitemap.xml"]
    assert sitemap_parts(daily_catalog(4), SETTINGS.feed_max_items) == 2


def test_the_index_lists_every_part_of_every_show_in_order(monkeypatch):
    # Given a sitemap may hold one URL: a (1 page, 1 year, 10 episodes) needs 12 parts, b 3, an empty show none
    monkeypatch.setattr(parts, "MAX_SITEMAP_URLS", 1)
    catalogs = daily_catalog(10, show="a"), daily_catalog(1, show="b"), daily_catalog(0, show="empty")

    # When the site is rendered
    published = site(*catalogs)

    # Then the index names each part once, by show and then by part number, and each part exists
    listed = [
        *(f"/a/sitemap{'' if part == 1 else f'-{part}'}.xml" for part in range(1, 13)),
        "/b/sitemap.xml",
        "/b/sitemap-2.xml",
        "/b/sitemap-3.xml",
    ]
    assert indexed(published) == [f"{SETTINGS.site_url}{path}" for path in listed]
    assert {key for key in published if key.endswith(".xml") and "sitemap" in key} == {
        "sitemap.xml",
        *(path.removeprefix("/") for path in listed),
    }
    assert sitemaps.indexed_parts(published["sitemap.xml"], SETTINGS) == {"a": 12, "b": 3}


def test_a_show_that_shrinks_below_a_boundary_deletes_the_parts_it_no_longer_has(limit_of_five):
    # Given a show of 16 URLs in 4 parts
    before = daily_catalog(13)

    # When 7 of its episodes are unpublished, leaving 9 URLs
    removals = [EpisodeRemoved(parse_source_key(f"episodes/daily/e{number:02d}.json"), None) for number in range(1, 8)]
    update = fold(before, removals, SETTINGS)
    plan = show_plan(update.after, update.refresh, SETTINGS, {})

    # Then it writes 2 parts and deletes the other 2
    assert [item.key for item in plan.puts if "sitemap" in item.key] == ["daily/sitemap.xml", "daily/sitemap-2.xml"]
    assert sorted(key for key in plan.deletes if "sitemap" in key) == ["daily/sitemap-3.xml", "daily/sitemap-4.xml"]


FROZEN = Settings(site_url=SETTINGS.site_url, feed_max_items=5)  # archive pages of 5, the newest 5 in the feed


def parts_of(catalog, settings=FROZEN) -> dict[str, bytes]:
    plan = show_plan(catalog, everything(catalog, settings.feed_max_items), settings, {})
    return {item.key: item.body for item in plan.puts if "/sitemap" in item.key}


def test_each_frozen_page_has_a_part_of_its_own_after_the_head():
    # Given 38 episodes in archive pages of 5: pages 1 to 3 hold none of the show page's newest 20
    catalog = daily_catalog(38)

    # When its sitemap is rendered
    written = parts_of(catalog)

    # Then the page, the years and the 23 newest fill the first part, and each frozen page its own,
    # newest first, together listing exactly what one sitemap would
    assert list(written) == ["daily/sitemap.xml", "daily/sitemap-2.xml", "daily/sitemap-3.xml", "daily/sitemap-4.xml"]
    assert len(urls(written["daily/sitemap.xml"])) == 1 + 2 + 23
    assert [loc for loc, _ in urls(written["daily/sitemap-2.xml"])] == [
        f"{SETTINGS.site_url}/daily/e{number:02d}/" for number in (5, 4, 3, 2, 1)
    ]
    whole = urls(sitemaps.show_sitemap(catalog, SETTINGS).body)
    assert sorted(url for body in written.values() for url in urls(body)) == sorted(whole)
    assert sitemap_parts(catalog, FROZEN.feed_max_items) == 4


@pytest.mark.parametrize(
    ("count", "change", "rewritten"),
    [
        (37, put_episode("daily", "newest", episode_document("Newest", "2026-06-01T09:00:00Z")), {"sitemap.xml"}),
        (
            40,  # the 41st episode freezes a fourth page, a publish after the 40th fills an archive page
            put_episode("daily", "newest", episode_document("Newest", "2026-06-01T09:00:00Z")),
            {"sitemap.xml", "sitemap-5.xml"},
        ),
        (
            38,  # an edit of an episode in a frozen page, which leaves its publish time as it was
            put_episode("daily", "e07", episode_document("Retitled", "2025-12-27T09:00:00Z")),
            set(),
        ),
        (
            38,  # one that publishes it an hour later, which its page's part shows
            put_episode("daily", "e07", episode_document("Episode 7", "2025-12-27T10:00:00Z")),
            {"sitemap-3.xml"},
        ),
        (38, EpisodeRemoved(parse_source_key("episodes/daily/e37.json")), {"sitemap.xml"}),
    ],
)
def test_a_publish_writes_the_head_s_part_and_only_the_frozen_parts_that_change(count, change, rewritten):
    # Given a show with frozen pages
    before = daily_catalog(count)

    # When one change is folded in
    update = fold(before, [change], FROZEN)
    plan = show_plan(update.after, update.refresh, FROZEN, {})

    # Then it writes the first part and, of the frozen pages' parts, exactly those whose bytes change,
    # as a from-scratch render writes them
    written = {item.key: item.body for item in plan.puts if "/sitemap" in item.key}
    old, new = parts_of(before), parts_of(update.after)
    assert {key.removeprefix("daily/") for key in written} == rewritten
    assert {key for key in new if old.get(key) != new[key]} <= written.keys()
    assert all(new[key] == body for key, body in written.items())


@pytest.mark.parametrize("feed_max_items", [3, 5, 20, 30, 99, 150, 999, 1000, 1050])
def test_a_page_s_part_joins_the_index_a_publish_after_the_page_froze_and_never_with_a_page_filling(
    feed_max_items,
):
    top = 3 * max(feed_max_items, 20) + 4 * archive_size(feed_max_items)
    bounds = daily_bounds(top, feed_max_items)

    def frozen(count: int) -> int:
        return frozen_count(bounds, count, feed_max_items)

    def indexed(count: int) -> int:
        return parts.indexed_count(bounds, count, feed_max_items)

    for count in range(1, top):
        # The index lists only frozen pages' parts, and each within two publishes of its freezing
        assert frozen(count - 2) <= indexed(count) <= frozen(count), count
        # And no new newest episode both freezes a page and has the site's sitemap index rewritten,
        # nor fills an archive page and has it rewritten
        listed = indexed(count) - indexed(count - 1)
        assert listed in (0, 1), count
        if listed:
            assert frozen(count) == frozen(count - 1), count
            assert not bounds.ends_at(count), count


def test_the_first_part_lists_the_episodes_of_a_page_frozen_by_the_last_publish_until_the_index_lists_it():
    # Given 41 episodes in archive pages of 5: the 41st froze a fourth page, of e16 to e20
    catalog = daily_catalog(41)
    page = [f"{SETTINGS.site_url}/daily/e{number:02d}/" for number in range(16, 21)]

    # When the show is rendered from scratch
    plans = render_site({"daily": catalog}, {}, FROZEN)
    published = {item.key: item.body for _label, plan in plans for item in plan.puts}

    # Then the page has its part, which the site's index does not list yet, and the first part lists
    # its episodes; with one more episode the index lists the part, and the first part no longer does
    assert [loc for loc, _ in urls(published["daily/sitemap-5.xml"])] == page[::-1]
    assert f"{SETTINGS.site_url}/daily/sitemap-5.xml" not in indexed(published)
    assert set(page) <= {loc for loc, _ in urls(published["daily/sitemap.xml"])}
    assert sitemap_parts(catalog, FROZEN.feed_max_items) == 4

    later = daily_catalog(42)
    assert sitemap_parts(later, FROZEN.feed_max_items) == 5
    assert not set(page) & {loc for loc, _ in urls(parts_of(later)["daily/sitemap.xml"])}


def test_an_index_written_under_another_site_url_still_gives_each_show_its_parts():
    # Given an index written while the site was served from another host, under a base path
    before = Settings(site_url="https://old.example.org/podcasts")
    index = next(item.body for item in site_plan({"daily": 3, "other": 1}, before).puts if item.key == "sitemap.xml")

    # When it is read with the settings of the site URL it has now
    indexed = sitemaps.indexed_parts(index, SETTINGS)

    # Then each show keeps its part count
    assert indexed == {"daily": 3, "other": 1}


def test_robots_txt_carries_an_ampersand_of_the_site_url_unescaped():
    # Given a site served under a path with an ampersand
    settings = Settings(site_url="https://example.com/a&b")

    # When its robots.txt is rendered
    robots = sitemaps.robots(settings).body.decode()

    # Then the sitemap line names the URL as it is: plain text has no entities
    assert "Sitemap: https://example.com/a&b/sitemap.xml" in robots.splitlines()
