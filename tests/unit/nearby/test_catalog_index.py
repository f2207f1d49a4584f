"""The nearby API's view of a catalog: read from the committed JSON, it lists exactly what the
episode pages list, at every edge of a show."""

import pytest

from podpages.catalog.model import Catalog
from podpages.errors import UnknownEpisode
from support.catalogs import SETTINGS, daily_catalog, episode_document, example_folder, indexed, put_episode


def slugs(episodes) -> list[str]:
    return [episode.slug for episode in episodes]


def test_the_first_episode_fills_from_after():
    index = indexed(daily_catalog(20))

    assert slugs(index.nearby("e01", 8)) == ["e09", "e08", "e07", "e06", "e05", "e04", "e03", "e02"]


def test_the_last_episode_fills_from_before():
    index = indexed(daily_catalog(20))

    assert slugs(index.nearby("e20", 8)) == ["e19", "e18", "e17", "e16", "e15", "e14", "e13", "e12"]


def test_an_episode_in_the_middle_gets_half_from_each_side_newest_first():
    index = indexed(daily_catalog(20))

    assert slugs(index.nearby("e10", 4)) == ["e12", "e11", "e09", "e08"]


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (1, {"e01": []}),
        (2, {"e01": ["e02"], "e02": ["e01"]}),
        (3, {"e01": ["e03", "e02"], "e02": ["e03", "e01"], "e03": ["e02", "e01"]}),
    ],
    ids=["show of 1", "show of 2", "show of 3"],
)
def test_a_tiny_show_lists_every_other_episode(size, expected):
    index = indexed(daily_catalog(size))

    assert {slug: slugs(index.nearby(slug, 8)) for slug in expected} == expected


def test_ties_on_published_are_broken_by_slug():
    catalog = Catalog(show="ties")
    for slug in ("tie-c", "tie-a", "tie-d", "tie-b"):
        catalog = catalog.apply(put_episode("ties", slug, episode_document(slug, "2026-03-01T12:00:00Z")), 1500)

    index = indexed(catalog)

    assert slugs(index.episodes) == ["tie-a", "tie-b", "tie-c", "tie-d"]
    assert slugs(index.nearby("tie-b", 2)) == ["tie-c", "tie-a"]


def test_a_limit_larger_than_the_show_lists_every_other_episode():
    index = indexed(daily_catalog(5))

    assert slugs(index.nearby("e03", 50)) == ["e05", "e04", "e02", "e01"]


@pytest.mark.parametrize("count", [0, 1, 2, 3, 8, 9, 50])
def test_every_episode_of_the_examples_lists_what_its_page_lists(count):
    for catalog in example_folder().catalogs.values():
        index = indexed(catalog)
        for entry in catalog.episodes:
            assert slugs(index.nearby(entry.slug, count)) == slugs(catalog.nearby(entry.slug, count))


def test_an_episode_carries_what_the_api_prints():
    catalog = Catalog(show="zones").apply(
        put_episode("zones", "late", episode_document("Late", "2026-03-01T23:30:00-02:00", duration="PT90M")), 1500
    )

    episode = indexed(catalog).episode("late")

    assert (episode.title, episode.published) == ("Late", "2026-03-02T01:30:00Z")
    assert (episode.duration, episode.duration_seconds) == ("PT1H30M", 5400)


def test_the_show_is_titled_as_its_pages_title_it_with_or_without_its_document():
    documented = example_folder().catalogs["pytorch"]
    undocumented = daily_catalog(2)

    assert indexed(documented).show_title == documented.show_document.title == "PyTorch"
    assert indexed(undocumented).show_title == undocumented.show_document.title == "daily"


@pytest.mark.parametrize("slug", ["e00", "e021", "a", "zzz", ""])
def test_a_slug_the_show_lacks_is_an_unknown_episode(slug):
    index = indexed(daily_catalog(20, settings=SETTINGS))

    with pytest.raises(UnknownEpisode, match="no episode"):
        index.nearby(slug, 8)
