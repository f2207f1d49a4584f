"""A show's lease against moto's in-process S3: one holder at a time, released after use, busy
after the wait, and taken over once its holder's time has run out."""

import json
import threading

import pytest

from podpages.errors import LeaseLost, ShowBusy
from podpages.publish.show_lease import LEASE_SECONDS, record_ahead, show_lease
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


def test_a_holder_that_fails_with_files_ahead_hands_the_lease_over_with_them(source):
    clock = Clock()
    with pytest.raises(RuntimeError), show_lease(source, "daily", clock=clock, sleep=clock.sleep) as lease:
        record_ahead(source, "daily", lease, PagesAhead(frozenset({"e01", "e02"})))
        raise RuntimeError("a page's write failed")

    handed = json.loads(source.read_lease("daily").body)
    assert handed["expires"] == 0 and handed["ahead"] == ["e01", "e02"]
    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0) as taken:  # at once: it has expired
        assert taken.ahead == PagesAhead(frozenset({"e01", "e02"}))
        assert json.loads(source.read_lease("daily").body)["ahead"] == ["e01", "e02"]  # kept until set right
        taken.ahead = PagesAhead()  # set right
    assert source.read_lease("daily") is None


def test_files_ahead_are_recorded_before_they_are_written_so_a_holder_cut_short_passes_them_on(source):
    clock = Clock()
    vanished = show_lease(source, "daily", clock=clock, sleep=clock.sleep)
    record_ahead(source, "daily", vanished.__enter__(), PagesAhead(frozenset({"e01"})))  # and it never comes back
    clock.now += LEASE_SECONDS + 1

    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0) as taken:
        assert taken.ahead == PagesAhead(frozenset({"e01"}))
        taken.ahead = PagesAhead()


def test_a_holder_whose_lease_was_taken_over_may_record_nothing_more(source):
    clock = Clock()
    stale = show_lease(source, "daily", clock=clock, sleep=clock.sleep)
    lease = stale.__enter__()
    clock.now += LEASE_SECONDS + 1

    with show_lease(source, "daily", clock=clock, sleep=clock.sleep, wait=0):
        with pytest.raises(LeaseLost, match="daily"):
            record_ahead(source, "daily", lease, PagesAhead(frozenset({"e01"})))
        assert "ahead" not in json.loads(source.read_lease("daily").body)


def test_a_record_already_held_is_not_written_again(source, s3):
    requests = []
    with show_lease(source, "daily") as lease:
        record_ahead(source, "daily", lease, PagesAhead(frozenset({"e01", "e02"})))
        s3.meta.events.register("before-call.s3", lambda model, **_: requests.append(model.name))
        record_ahead(source, "daily", lease, PagesAhead(frozenset({"e02"})))
        assert requests == []
        lease.ahead = PagesAhead()
