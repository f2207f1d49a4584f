"""Moments as pages, feeds and the API print them: in UTC, whatever the machine's zone or locale."""

from datetime import UTC, datetime
from functools import lru_cache

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


# Moments kept written: an episode's page writes its moment four times, and its year archive and
# sitemap once more each; a worker of `podpages render` renders runs of up to 1,000 episodes.
KEPT_MOMENTS = 1024


@lru_cache(maxsize=KEPT_MOMENTS)
def rfc3339(moment: datetime) -> str:
    """UTC, to the second, with a Z: `2026-01-28T11:05:41Z`. (`isoformat` writes it in half the time
    `strftime` takes, and a render writes it six times a page; the cache, in a tenth.)"""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def calendar_date(moment: datetime) -> str:
    """`28 January 2026`, in UTC, whatever the machine's locale."""
    moment = moment.astimezone(UTC)
    return f"{moment.day} {MONTHS[moment.month - 1]} {moment.year}"
