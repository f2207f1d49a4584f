"""Moments as pages, feeds and the API print them: in UTC, to the second, whatever the offset given."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from podpages.moments import calendar_date, rfc3339


@pytest.mark.parametrize(
    ("moment", "printed"),
    [
        (datetime(2026, 1, 28, 11, 5, 41, tzinfo=UTC), "2026-01-28T11:05:41Z"),
        # An offset is taken off, and a fraction of a second cut, never rounded up
        (datetime(2026, 1, 28, 12, 5, 41, 999_999, tzinfo=timezone(timedelta(hours=1))), "2026-01-28T11:05:41Z"),
        (datetime(2025, 12, 31, 23, 30, tzinfo=timezone(timedelta(hours=-5))), "2026-01-01T04:30:00Z"),
        (datetime(1000, 1, 1, tzinfo=UTC), "1000-01-01T00:00:00Z"),
    ],
)
def test_a_moment_is_printed_in_utc_to_the_second(moment, printed):
    assert rfc3339(moment) == printed


def test_a_calendar_date_is_the_day_in_utc():
    assert calendar_date(datetime(2025, 12, 31, 23, 30, tzinfo=timezone(timedelta(hours=-5)))) == "1 January 2026"
