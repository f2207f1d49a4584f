"""The objects a render reads to last it out: held out of the cyclic collector's way while they are
made, frozen once they are, and let go when the render is done."""

import gc

from podpages.cli.workers import lasting_objects


def test_lasting_objects_are_frozen_once_made_and_let_go_after():
    assert gc.isenabled()
    with lasting_objects() as made:
        # While they are made, no pass of the collector walks them
        assert not gc.isenabled()
        catalogs = [{"slug": f"episode-{number}"} for number in range(1_000)]
        made()
        # Then they are frozen, and the collector runs again for what comes after
        assert gc.isenabled() and gc.get_freeze_count() >= len(catalogs)
    # And the block let them go: a process that lives on after the render collects them again
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_lasting_objects_leave_the_collector_as_they_found_it_when_the_block_fails():
    try:
        with lasting_objects():
            raise ValueError("a file could not be read")
    except ValueError:
        pass
    assert gc.isenabled() and gc.get_freeze_count() == 0
