"""A show's lease against moto's in-process S3: one holder at a time, released after use, busy
after the wait, and taken over once its holder's time has run out."""

import json
import threading
from datetime import UTC, datetime

import pytest

from podpages.errors import ShowBusy
from podpages.publish.show_lease import LEASE_SECONDS, show_lease
from podpages.storage.pages_ahead import PagesAhead
from support.clock import Clock


def test_a_lease_is_held_during_the_work_and_released_after(source):
    with show_lease(source, "daily"):
        held = json.loads(source.read_lease("daily").body)

    assert held["expires"] > 0 and source.read_lease("daily") is None


def test_a_lease_is_released_when_the_work_fails(source):
    with pytest.raises(RuntimeError), show_lease(source, "daily"):
        raise RuntimeError("the publish failed")

    assert source.read_lease("daily") is None


def test_a_second_taker_waits_then_gives_up_as_busy(source):
    clock = Clock()
    with show_lease(source, "daily", clock=clock, sleep=clock.sleep):
        with (
            pytest.raises(ShowBusy, match="daily"),
            show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=5),
        ):
            pass
        assert source.read_lease("daily") is not None  # the holder still has it


def test_other_shows_do_not_wait(source):
    with show_lease(source, "daily"), show_lease(source, "weekly"):
        assert source.read_lease("daily") and source.read_lease("weekly")


def test_an_expired_lease_is_taken_over_and_its_old_holder_cannot_release_the_new_one(source):
    clock = Clock()
    stale = show_lease(source, "daily", clock=clock, sleep=clock.sleep)
    stale.__enter__()  # a holder that timed out and never came back
    clock.now += LEASE_SECONDS + 1

    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0):
        stale.__exit__(None, None, None)  # too late: the lease is no longer the one it took
        assert source.read_lease("daily") is not None
    assert source.read_lease("daily") is None


def test_of_many_concurrent_takers_one_holds_the_lease_at_a_time(source):
    holding, most = [], []
    lock = threading.Lock()

    def hold():
        with show_lease(source, "daily"):
            with lock:
                holding.append(1)
                most.append(len(holding))
            threading.Event().wait(0.01)
            with lock:
                holding.pop()

    def work():
        # In-process moto can close an object's buffer while another thread still reads the
        # version it replaced, which S3 never does; such a take is simply tried again.
        for _attempt in range(5):
            try:
                return hold()
            except ValueError as error:
                if "closed file" not in str(error):
                    raise

    workers = [threading.Thread(target=work) for _ in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert max(most) == 1 and len(most) == 6


AHEAD = PagesAhead(frozenset({("e01", datetime(2026, 1, 5, 9, tzinfo=UTC)), ("e02", None)}))


def test_a_lease_records_where_its_holder_may_write_ahead_of_the_catalog(source):
    with show_lease(source, "daily", ahead=AHEAD) as lease:
        record = json.loads(source.read_lease("daily").body)

    assert record["ahead"] == [["e01", "2026-01-05T09:00:00+00:00"], ["e02", None]]
    assert not lease.unsettled and source.read_lease("daily") is None  # nothing written: released


def test_a_holder_that_fails_with_pages_ahead_hands_the_lease_over_with_its_record(source):
    clock = Clock()
    with pytest.raises(RuntimeError), show_lease(source, "daily", clock=clock, sleep=clock.sleep, ahead=AHEAD) as lease:
        lease.unsettled = True  # it began to write pages
        raise RuntimeError("a page's write failed")

    assert json.loads(source.read_lease("daily").body)["expires"] == 0
    mine = PagesAhead(frozenset({("e03", None)}))
    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0, ahead=mine) as taken:  # at once
        assert taken.inherited == AHEAD and taken.unsettled  # until it has set them right
        assert PagesAhead.from_fields(json.loads(source.read_lease("daily").body)) == AHEAD | mine
        taken.unsettled = False
    assert source.read_lease("daily") is None


def test_a_holder_cut_short_passes_its_record_on_when_its_lease_expires(source):
    clock = Clock()
    vanished = show_lease(source, "daily", clock=clock, sleep=clock.sleep, ahead=AHEAD)
    vanished.__enter__().unsettled = True  # and it never comes back
    clock.now += LEASE_SECONDS + 1

    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0) as taken:
        assert taken.inherited == AHEAD
        taken.unsettled = False
