"""Episode durations: ISO 8601 in, seconds and human-readable text out."""

from datetime import timedelta
from functools import lru_cache

import isodate

MIN_DURATION = timedelta(seconds=1)
MAX_DURATION = timedelta(hours=48)


def parse_duration(value: object) -> timedelta:
    """Parse an ISO 8601 duration such as `PT4M5S` or `PT90M`: at least 1 s, since feeds carry whole
    seconds, and at most 48 h."""
    if isinstance(value, timedelta):
        duration = value
    elif isinstance(value, str):
        duration = _parse_iso(value)
    else:
        raise ValueError("must be an ISO 8601 duration string such as PT4M5S")
    if duration < MIN_DURATION:
        raise ValueError("must be at least 1 second (PT1S)")
    if duration > MAX_DURATION:
        raise ValueError("must be at most 48 hours (PT48H)")
    return duration


@lru_cache(maxsize=8192)  # each publish reads its show's head back, 1,000 durations and more
def _parse_iso(value: str) -> timedelta:
    try:
        parsed = isodate.parse_duration(value)
    except (isodate.ISO8601Error, ValueError) as error:
        raise ValueError(f"{value!r} is not an ISO 8601 duration such as PT4M5S") from error
    if not isinstance(parsed, timedelta):
        raise ValueError("use hours, minutes and seconds: years and months have no fixed length")
    return parsed


@lru_cache(maxsize=4096)  # a page prints its episode's duration so three times, and isodate takes its time
def iso_duration(duration: timedelta) -> str:
    """The canonical ISO 8601 form, as `<time datetime>` and JSON-LD want it: `PT1H30M`."""
    return str(isodate.duration_isoformat(duration))


def total_seconds(duration: timedelta) -> int:
    """Whole seconds, rounded down, as `itunes:duration` wants them."""
    return int(duration.total_seconds())


def human_duration(duration: timedelta) -> str:
    """A short reading for people: `4 min 5 s`, `1 h 30 min`, `45 s`."""
    seconds = total_seconds(duration)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [f"{value} {unit}" for value, unit in ((hours, "h"), (minutes, "min"), (seconds, "s")) if value]
    return " ".join(parts) or "0 s"


def clock(seconds: float, with_hours: bool = False) -> str:
    """A moment in the audio as players show it, in whole seconds: `0:00`, `12:05`, `1:02:03`; with
    hours, `0:01:35`, so that a list of moments in a long episode shares one form."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, whole = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{whole:02d}" if hours or with_hours else f"{minutes}:{whole:02d}"


def offset_duration(seconds: float) -> str:
    """A moment in the audio as the duration string `<time datetime>` takes, in seconds only:
    `PT725S`, `PT610.5S`. HTML allows at most three decimals, so finer starts are rounded."""
    return f"PT{millisecond_text(seconds)}S"


def millisecond_text(seconds: float) -> str:
    """Seconds to the millisecond, at their shortest: `725`, `610.5`, `65.25`."""
    return f"{seconds:.3f}".rstrip("0").removesuffix(".")


def json_seconds(seconds: float) -> int | float:
    """Seconds as JSON formats write them: whole ones as an integer (`94`, not `94.0`), the rest as they are."""
    return int(seconds) if seconds.is_integer() else seconds


def timestamp(milliseconds: int, decimal_mark: str = ".") -> str:
    """A moment in full, hours always: `01:02:03.004` (WebVTT, RFC 2326's normal play time), or
    `01:02:03,004` with SubRip's comma."""
    seconds, millis = divmod(milliseconds, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{decimal_mark}{millis:03d}"
