"""Where a show's archive pages begin and end (`catalog.page_bounds`): asked of pages of any counts,
and of a catalog a publish reads a window at a time, which must see the pages the whole catalog has."""

from podpages.catalog.page_bounds import PageBounds


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
