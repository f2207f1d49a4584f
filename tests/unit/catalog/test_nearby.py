"""Nearby episodes: half before and half after, short sides filled, newest first."""

import pytest

from podpages.catalog.nearby import nearby
from support.catalogs import daily_catalog, episode_document, put_episode

EPISODES = list(range(20))  # publish order, oldest first


def test_an_episode_in_the_middle_gets_half_from_each_side_newest_first():
    assert nearby(EPISODES, 10, 8) == [14, 13, 12, 11, 9, 8, 7, 6]


def test_the_first_episode_fills_from_after():
    assert nearby(EPISODES, 0, 8) == [8, 7, 6, 5, 4, 3, 2, 1]


def test_the_last_episode_fills_from_before():
    assert nearby(EPISODES, 19, 8) == [18, 17, 16, 15, 14, 13, 12, 11]


def test_an_episode_near_the_end_fills_from_before():
    assert nearby(EPISODES, 18, 8) == [19, 17, 16, 15, 14, 13, 12, 11]


@pytest.mark.parametrize(
    ("size", "expected"),
    [(1, {0: []}), (2, {0: [1], 1: [0]}), (3, {0: [2, 1], 1: [2, 0], 2: [1, 0]})],
    ids=["show of 1", "show of 2", "show of 3"],
)
def test_a_tiny_show_lists_every_other_episode(size, expected):
    assert {index: nearby(list(range(size)), index, 8) for index in range(size)} == expected


def test_a_limit_larger_than_the_show_lists_every_other_episode():
    assert nearby(list(range(5)), 2, 50) == [4, 3, 1, 0]


def test_an_odd_count_takes_the_extra_one_from_before():
    assert nearby(EPISODES, 10, 3) == [11, 9, 8]


def test_a_count_of_zero_lists_nothing():
    assert nearby(EPISODES, 10, 0) == []


def test_the_list_never_holds_the_episode_itself_or_duplicates():
    for index in range(len(EPISODES)):
        listed = nearby(EPISODES, index, 8)
        assert index not in listed and len(set(listed)) == len(listed) == 8


def test_ties_on_published_are_broken_by_slug():
    catalog = daily_catalog(3)
    same_time = "2026-03-01T12:00:00Z"
    for slug in ("tie-b", "tie-a", "tie-c"):
        catalog = catalog.apply(put_episode("daily", slug, episode_document(slug, same_time)), 1500)

    assert [entry.slug for entry in catalog.episodes][-3:] == ["tie-a", "tie-b", "tie-c"]
    assert [entry.slug for entry in catalog.nearby("tie-b", 2)] == ["tie-c", "tie-a"]
