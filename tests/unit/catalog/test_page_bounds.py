"""Where a show's archive pages begin and end: cut by their episodes' slugs (`feed_archives.cut`),
so that a removal or an insertion changes one page and leaves the pages after it as they were, and
asked of pages of any counts (`catalog.page_bounds`)."""

import statistics
from collections import Counter
from itertools import accumulate

import pytest

from podpages.catalog.feed_archives import cut
from podpages.catalog.page_bounds import PageBounds

SLUGS = [f"episode-{number:05d}" for number in range(10_000)]


def pages(slugs: list[str], feed_max_items: int = 1000) -> list[tuple[str, ...]]:
    """The episodes of each full archive page, oldest first."""
    ends = [0, *accumulate(cut(slugs, feed_max_items))]
    return [tuple(slugs[start:stop]) for start, stop in zip(ends, ends[1:], strict=False)]


def test_pages_hold_about_100_episodes_and_never_fewer_than_25_nor_more_than_200():
    counts = cut(SLUGS, 1000)

    assert min(counts) >= 25 and max(counts) <= 200
    assert 85 <= statistics.mean(counts) <= 105
    assert sum(counts) > len(SLUGS) - 200  # the feed holds the episodes after the last page


def test_removing_the_oldest_episode_changes_the_first_page_alone():
    before, after = pages(SLUGS), pages(SLUGS[1:])

    assert after[0] == before[0][1:] and after[1:] == before[1:]


@pytest.mark.parametrize("change", ["removal", "insertion"])
def test_a_removal_or_an_insertion_anywhere_changes_its_own_page_and_rarely_one_more(change):
    before = set(pages(SLUGS))
    changed = Counter()
    for at in range(0, 9_800, 29):
        slugs = SLUGS[:at] + SLUGS[at + 1 :] if change == "removal" else [*SLUGS[:at], f"new-{at}", *SLUGS[at:]]
        changed[len(set(pages(slugs)) - before)] += 1

    # A page that runs past 150 episodes ends at one in ten of them, which an insertion before it
    # may move: the pages after it follow, for two or three pages.
    assert changed[1] >= 0.9 * changed.total() and max(changed) <= 10, changed


@pytest.mark.parametrize(("feed_max_items", "size"), [(1, 1), (5, 5), (30, 30), (100, 100)])
def test_a_feed_of_100_items_or_fewer_has_pages_of_its_own_size(feed_max_items, size):
    assert cut(SLUGS[:1000], feed_max_items) == [size] * (1000 // size)


def test_a_page_is_never_larger_than_the_feed():
    assert max(cut(SLUGS, 150)) <= 150 and max(cut(SLUGS, 0)) <= 200


def test_pages_of_any_counts_say_where_each_begins_and_which_one_holds_an_episode():
    bounds = PageBounds.of_counts([3, 5, 2])

    assert len(bounds) == 3
    assert [bounds.start(page) for page in (1, 2, 3, 4)] == [0, 3, 8, 10]
    assert [bounds.stop(page) for page in (1, 2, 3)] == [3, 8, 10]
    # Past the last page, an episode is on the page after it, which starts where the last ends.
    assert [bounds.page_of(position) for position in range(13)] == [1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 4, 4, 4]


def test_a_show_without_pages_starts_its_episodes_at_the_first():
    bounds = PageBounds.of_counts([])

    assert len(bounds) == 0 and bounds.start(1) == 0 and bounds.page_of(7) == 1
