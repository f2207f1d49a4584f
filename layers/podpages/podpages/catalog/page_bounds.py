"""Where each of a show's archive pages (`feed_archives`) begins and ends, as positions in the show:
its episodes in publish order, the oldest at 0.

The rule that cuts a show into pages is stated once, in `feed_archives.archive_bounds`; everything
that asks which page holds an episode, or where a page begins, asks a `PageBounds`. A reader that
knows the pages only by their counts (the catalog's index, the nearby index) makes one of them, and
so never assumes the rule. This module imports nothing of the catalog's models: the nearby function
reads its index with it.
"""

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate


@dataclass(frozen=True)
class PageBounds:
    ends: tuple[int, ...]  # where each page ends, oldest first: the position after its last episode

    @classmethod
    def of_counts(cls, counts: Iterable[int]) -> "PageBounds":
        """The bounds of pages of these counts, end to end from the show's oldest episode."""
        return cls(tuple(accumulate(counts)))

    def __len__(self) -> int:
        """How many pages there are."""
        return len(self.ends)

    def start(self, page: int) -> int:
        """The position of the first episode of page `page` (from 1). Of the page after the last:
        where the last ends, so that the episodes after the pages start there."""
        return self.ends[page - 2] if page > 1 else 0

    def stop(self, page: int) -> int:
        """The position after the last episode of page `page`."""
        return self.ends[page - 1]

    def page_of(self, position: int) -> int:
        """The page that holds the episode at `position`; the one after the last, for an episode
        after them."""
        return bisect_right(self.ends, position) + 1

    def ends_at(self, position: int) -> bool:
        """Whether a page ends right before `position`: with the episode before it."""
        return self.page_of(position - 1) != self.page_of(position)
