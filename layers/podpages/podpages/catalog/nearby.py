"""Which episodes an episode's page lists as nearby: the closest in publish order, half before
and half after."""

from collections.abc import Sequence


def nearby[T](episodes: Sequence[T], index: int, count: int) -> list[T]:
    """Up to `count` episodes closest to `episodes[index]` in publish order, newest first.

    `episodes` is in publish order, oldest first, ties broken by slug. Half come from before
    the episode and half from after it (the odd one from before); a short side is filled
    from the other.
    """
    start, stop = nearby_span(len(episodes), index, count)
    window = [*episodes[start:index], *episodes[index + 1 : stop]]
    return window[::-1]


def nearby_span(length: int, index: int, count: int) -> tuple[int, int]:
    """Where the nearby episodes of the episode at `index`, of `length` in all, are drawn from:
    the positions from the first to the one past the last, the episode's own among them."""
    available_before = index
    available_after = length - index - 1
    after = min(count // 2, available_after)
    before = min(count - after, available_before)
    after = min(count - before, available_after)
    return index - before, index + after + 1
