"""How many objects of a kind the process holds: what a test of memory counts, where bytes would
vary with the interpreter."""

import gc


def alive(kind: type) -> int:
    """The objects of exactly `kind` that something still refers to: garbage is collected first, so
    that what an earlier test left to the collector is not counted, nor gone by the next count. A type
    test, not `isinstance`, which raises on a weak proxy whose object is gone."""
    gc.collect()
    return sum(type(thing) is kind for thing in gc.get_objects())
