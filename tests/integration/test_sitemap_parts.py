"""A show's sitemap in parts of at most MAX_SITEMAP_URLS URLs: on the publish path a part appears as the
show grows past a boundary and goes as it shrinks back, the index always lists exactly the parts of
every show, and the site stays what a from-scratch render builds."""

import dataclasses
import json

import pytest
from lxml import etree

from podpages.catalog import sitemap_parts as parts
from support.catalogs import episode_document

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}


@pytest.fixture(autouse=True)
def limit_of_five(monkeypatch):
    """Five URLs a sitemap: the handler reads the limit from this same module."""
    monkeypatch.setattr(parts, "MAX_SITEMAP_URLS", 5)


def publish(stack, show: str, days: range) -> None:
    for day in days:
        document = episode_document(f"Day {day}", f"2026-01-{day:02d}T09:00:00Z")
        stack.upload(f"episodes/{show}/day-{day:02d}.json", json.dumps(document))
    stack.deliver()


def unpublish(stack, show: str, days: range) -> None:
    for day in days:
        stack.remove(f"episodes/{show}/day-{day:02d}.json")
    stack.deliver()


def sitemap_keys(stack) -> set[str]:
    return {key for key in stack.keys(stack.site) if "/sitemap" in key}


def locations(stack) -> list[str]:
    return etree.fromstring(stack.read(stack.site, "sitemap.xml")).xpath("//sm:loc/text()", namespaces=NS)


def indexed(stack) -> list[str]:
    return [location.removeprefix(stack.settings.site_url) for location in locations(stack)]


def test_a_part_appears_past_a_boundary_and_goes_below_it_with_the_index_in_step(stack, tmp_path):
    # Given a show of 1 page, 1 year and 5 episodes (two parts) and one of 3 episodes (one part)
    publish(stack, "other", range(1, 6))
    publish(stack, "daily", range(1, 4))
    assert sitemap_keys(stack) == {"other/sitemap.xml", "other/sitemap-2.xml", "daily/sitemap.xml"}
    assert indexed(stack) == ["/daily/sitemap.xml", "/other/sitemap.xml", "/other/sitemap-2.xml"]
    assert stack.site_objects() == stack.from_scratch(tmp_path / "one")

    # When the smaller show grows past 5 URLs
    publish(stack, "daily", range(4, 6))

    # Then its second part is published and the index lists it, keeping the other show's parts
    assert sitemap_keys(stack) == {
        "other/sitemap.xml",
        "other/sitemap-2.xml",
        "daily/sitemap.xml",
        "daily/sitemap-2.xml",
    }
    assert indexed(stack) == [
        "/daily/sitemap.xml",
        "/daily/sitemap-2.xml",
        "/other/sitemap.xml",
        "/other/sitemap-2.xml",
    ]
    assert stack.site_objects() == stack.from_scratch(tmp_path / "two")

    # When it shrinks back to 5 URLs
    unpublish(stack, "daily", range(3, 5))

    # Then the second part is gone from the bucket and from the index
    assert sitemap_keys(stack) == {"other/sitemap.xml", "other/sitemap-2.xml", "daily/sitemap.xml"}
    assert indexed(stack) == ["/daily/sitemap.xml", "/other/sitemap.xml", "/other/sitemap-2.xml"]
    assert stack.site_objects() == stack.from_scratch(tmp_path / "three")


def test_a_show_that_leaves_takes_all_its_parts_with_it(stack, tmp_path):
    # Given a show of three parts beside another of one
    publish(stack, "daily", range(1, 13))
    publish(stack, "other", range(1, 2))
    assert indexed(stack) == [
        "/daily/sitemap.xml",
        "/daily/sitemap-2.xml",
        "/daily/sitemap-3.xml",
        "/other/sitemap.xml",
    ]

    # When every episode of the larger show is unpublished
    unpublish(stack, "daily", range(1, 13))

    # Then none of its parts is left, in the bucket or in the index
    assert sitemap_keys(stack) == {"other/sitemap.xml"}
    assert indexed(stack) == ["/other/sitemap.xml"]
    assert stack.site_objects() == stack.from_scratch(tmp_path)


def test_a_site_url_change_keeps_the_parts_of_every_show_in_the_index(stack, render_function, monkeypatch):
    # Given a show of three parts, indexed under the site URL the stack started with
    publish(stack, "daily", range(1, 13))

    # When the site URL changes and another show publishes, rewriting the index
    moved = dataclasses.replace(stack.settings, site_url="https://moved.example.org/podcasts")
    monkeypatch.setattr(render_function.publisher, "settings", moved)
    publish(stack, "other", range(1, 2))

    # Then the index, now under the new URL, still lists all three parts of the first show
    assert locations(stack) == [
        f"{moved.site_url}{path}"
        for path in ("/daily/sitemap.xml", "/daily/sitemap-2.xml", "/daily/sitemap-3.xml", "/other/sitemap.xml")
    ]
