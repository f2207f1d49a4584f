"""Which episodes an episode's page lists as nearby: the closest in publish order, half before
and half after."""

from collections.abc import Sequence


def nearby[T](episodes: Sequence[T], index: int, count: int) -> list[T]:
    """Up to `count` episodes closest to `episodes[index]` in publish order, newest first.

    `episodes` is in publish order, oldest first, ties broken by slug. Half come from before
    the episode and half from after it (the odd one from before); a short side is filled
    from the other.
    """
    available_before = index
    available_after = len(episodes) - index - 1
    after = min(count // 2, available_after)
    before = min(count - after, available_before)
    after = min(count - before, available_after)
    window = [*episodes[index - before : index], *episodes[index + 1 : index + 1 + after]]
    return window[::-1]
