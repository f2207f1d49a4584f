"""Durations: ISO 8601 in (with isodate), seconds and human text out."""

from datetime import timedelta

import pytest

from podpages.durations import human_duration, iso_duration, parse_duration, total_seconds


@pytest.mark.parametrize(
    ("text", "seconds", "iso", "human"),
    [
        ("PT4M5S", 245, "PT4M5S", "4 min 5 s"),
        ("PT90M", 5400, "PT1H30M", "1 h 30 min"),
        ("PT45S", 45, "PT45S", "45 s"),
        ("PT1H0M1S", 3601, "PT1H1S", "1 h 1 s"),
        ("PT48H", 172800, "P2D", "48 h"),
        ("PT2.5S", 2, "PT2.5S", "2 s"),
    ],
)
def test_a_duration_reads_in_every_form(text, seconds, iso, human):
    duration = parse_duration(text)

    assert (total_seconds(duration), iso_duration(duration), human_duration(duration)) == (seconds, iso, human)


@pytest.mark.parametrize("text", ["PT0S", "-PT1S", "PT48H1S", "P3D", "P1Y", "1:05", ""])
def test_out_of_range_or_unreadable_durations_are_refused_each_time_they_come(text):
    # Durations read are remembered: one refused must not be remembered as read
    for _time in range(2):
        with pytest.raises(ValueError):
            parse_duration(text)


def test_a_fraction_of_a_second_reads_as_under_a_second():
    assert human_duration(timedelta(milliseconds=500)) == "0 s"
