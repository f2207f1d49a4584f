"""`podpages status` names each show's lease in place, against moto's in-process S3: one held by a
publish at work, and one a failed publish left behind, with what sets its pages right."""

from datetime import UTC, datetime

import pytest

from podpages.cli.status import Status, show_leases
from podpages.publish.show_lease import LEASE_SECONDS, show_lease
from podpages.storage.pages_ahead import PagesAhead
from support.clock import Clock

EVERY_EPISODE = PagesAhead(every=True)


def test_a_lease_held_by_a_publish_at_work_is_shown_with_when_it_runs_out(source):
    with show_lease(source, "daily"):
        (lease,) = show_leases(source)

    assert lease.held and lease.show == "daily"
    assert abs(lease.expires.timestamp() - datetime.now(UTC).timestamp() - LEASE_SECONDS) < 60
    assert lease.line().startswith("  daily: held by a publish or rebuild at work, until 20")
    assert show_leases(source) == []  # released


def test_a_lease_a_failed_publish_handed_over_says_its_pages_may_be_ahead_and_what_writes_them_again(source):
    with pytest.raises(RuntimeError), show_lease(source, "daily", ahead=EVERY_EPISODE) as held:
        held.unsettled = True  # it began to write pages
        raise RuntimeError("a page's write failed")

    (lease,) = show_leases(source)

    assert not lease.held and lease.ahead
    assert "may have left pages ahead of the catalog" in lease.line()
    assert "`podpages rebuild --show daily`" in lease.line()


def test_a_lease_left_by_a_holder_cut_short_with_nothing_ahead_is_told_apart(source):
    clock = Clock()  # long past: the lease it takes has run out by now
    vanished = show_lease(source, "weekly", clock=clock, sleep=clock.sleep)
    vanished.__enter__()  # and it never comes back (kept, since the lease's `finally` would release it)

    (lease,) = show_leases(source)

    assert not lease.held and not lease.ahead
    assert lease.line() == (
        "  weekly: expired, left by a publish or rebuild that did not end; the show's next publish takes it over"
    )


def test_status_counts_the_leases_and_prints_a_line_for_each(source):
    with show_lease(source, "daily"), show_lease(source, "weekly"):
        leases = show_leases(source)
    lines = Status(0, 0, 0, 0, [], 0, 0, leases).lines()

    assert "show leases: 2" in lines
    assert [line.split(":")[0] for line in lines if line.startswith("  ")] == ["  daily", "  weekly"]
    assert "show leases: 0" in Status(0, 0, 0, 0, [], 0, 0).lines()
