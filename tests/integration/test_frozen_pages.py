"""A show past its feed, on the publish path: each archive page the feed no longer reaches is frozen,
and has a sitemap part and a nearby index part of its own. Publishing new episodes, editing an old
one and removing others keeps the site equal to a from-scratch render, the source bucket holding
exactly the parts its nearby index names, and the nearby API answering what each page shows."""

import dataclasses
import json

import pytest
from lxml import html

from podpages.catalog.stored import load_nearby_index
from podpages.nearby.cache import REVALIDATE_AFTER
from support.catalogs import episode_document
from support.events import nearby_request


@pytest.fixture
def paged(stack, render_function, nearby, monkeypatch):
    """The stack and both functions with a feed of 5 episodes: archive pages of 5."""
    settings = dataclasses.replace(stack.settings, feed_max_items=5)
    monkeypatch.setattr(stack, "settings", settings)
    monkeypatch.setattr(render_function.publisher, "settings", settings)
    return stack


def publish(stack, days: range, title: str = "Day") -> None:
    for day in days:
        document = episode_document(f"{title} {day}", f"2026-01-{day:02d}T09:00:00Z")
        stack.upload(f"episodes/daily/day-{day:02d}.json", json.dumps(document))
    stack.deliver()


def nearby_parts(stack) -> set[str]:
    return {key for key in stack.keys(stack.source, "catalog/daily/") if "/nearby-" in key}


def named_parts(stack) -> set[str]:
    index = load_nearby_index(stack.read(stack.source, "catalog/daily.nearby.json"))
    return {f"catalog/daily/nearby-{page}-{digest}.json" for page, (_hashes, digest) in enumerate(index["pages"], 1)}


def nearby_links(page: bytes) -> list[tuple[str, str]]:
    links = html.fromstring(page).xpath("//section[@aria-labelledby='nearby']//a")
    return [(link.get("href"), link.text_content()) for link in links]


def check(stack, nearby, folder) -> None:
    """The site is what a from-scratch render builds, the bucket holds the parts the index names and
    no others, and the nearby API lists for every episode what its page lists."""
    assert stack.site_objects() == stack.from_scratch(folder)
    assert nearby_parts(stack) == named_parts(stack)
    nearby.clock.now += REVALIDATE_AFTER
    for key in sorted(stack.keys(stack.site, "daily/day-")):
        if key.endswith("/index.html"):
            slug = key.split("/")[1]
            listing = json.loads(nearby(nearby_request("daily", slug))["body"])
            expected = nearby_links(stack.read(stack.site, key))
            assert [(item["url"], item["title"]) for item in listing["items"]] == expected, slug


def test_frozen_pages_follow_every_kind_of_publish(paged, nearby, tmp_path):
    # Given 23 episodes: frozen pages 1 to 3 of 5 episodes, and a head of 8
    publish(paged, range(1, 24))
    assert len(named_parts(paged)) == 3
    assert {key for key in paged.keys(paged.site, "daily/") if "sitemap" in key} == {
        "daily/sitemap.xml",
        "daily/sitemap-2.xml",
        "daily/sitemap-3.xml",
        "daily/sitemap-4.xml",
    }
    check(paged, nearby, tmp_path / "first")

    # When two new episodes freeze a fourth page
    parts = nearby_parts(paged)
    publish(paged, range(24, 26))

    # Then its part is added and the other parts are left as they were
    assert nearby_parts(paged) - parts == {key for key in named_parts(paged) if "/nearby-4-" in key}
    assert parts <= nearby_parts(paged)
    check(paged, nearby, tmp_path / "grown")

    # When an episode of frozen page 2 is retitled
    parts = nearby_parts(paged)
    publish(paged, range(7, 8), title="Retitled")

    # Then that page's part alone is replaced, the one it replaced gone
    assert {key.split("-")[1] for key in parts ^ nearby_parts(paged)} == {"2"}
    check(paged, nearby, tmp_path / "edited")

    # When an episode of frozen page 1 and the newest are removed, shifting every page after it
    paged.remove("episodes/daily/day-02.json")
    paged.remove("episodes/daily/day-25.json")
    paged.deliver()

    # Then the fourth page is no longer frozen, and its part is gone with the others replaced
    assert len(named_parts(paged)) == 3
    check(paged, nearby, tmp_path / "removed")


def test_a_whole_index_left_by_an_earlier_podpages_is_answered_from_then_cut_by_the_next_publish(
    paged, nearby, tmp_path
):
    # Given a show whose nearby index an earlier podpages wrote whole, every row in one object
    publish(paged, range(1, 24))
    stored = json.loads(paged.read(paged.source, "catalog/daily.nearby.json"))
    parts = sorted(named_parts(paged))
    rows = [row for part in parts for row in json.loads(paged.read(paged.source, part))["episodes"]]
    rows.sort(key=lambda row: (row[2], row[0]))
    whole = {"version": 1, "show": "daily", "title": stored["title"], "episodes": [*rows, *stored["episodes"]]}
    paged.s3.put_object(Bucket=paged.source, Key="catalog/daily.nearby.json", Body=json.dumps(whole).encode())
    paged.s3.delete_objects(Bucket=paged.source, Delete={"Objects": [{"Key": key} for key in parts]})

    # Then the nearby API answers from it
    nearby.clock.now += REVALIDATE_AFTER
    listing = json.loads(nearby(nearby_request("daily", "day-03", {"limit": "2"}))["body"])
    assert [item["slug"] for item in listing["items"]] == ["day-04", "day-02"]

    # When the next episode is published, the index is cut into its parts again
    publish(paged, range(24, 25))
    assert len(named_parts(paged)) == 3
    check(paged, nearby, tmp_path)
