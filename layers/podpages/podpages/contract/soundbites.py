"""An episode's soundbites: short stretches of the audio that stand for the whole, as the podcast
namespace's `podcast:soundbite` names them. That each ends by the end of the audio is the episode's
check (`soundbites_past_the_end`), since only it knows its duration."""

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from podpages.contract.fields import Contract, FieldPath, Seconds, seconds_text
from podpages.contract.plain_text import Line

MAX_SOUNDBITES = 20


class Soundbite(Contract):
    start: Seconds
    duration: Annotated[float, Field(gt=0, allow_inf_nan=False, description="seconds")]
    title: Annotated[Line, Field(max_length=128)] | None = None

    @property
    def end(self) -> float:
        """Where it ends, in seconds; rounded to the microsecond that durations resolve, so that 240.1
        and 4.9 end at 245, as written, not at 245.00000000000003."""
        return round(self.start + self.duration, 6)


Soundbites = Annotated[tuple[Soundbite, ...], Field(min_length=1, max_length=MAX_SOUNDBITES)]


def soundbites_past_the_end(
    soundbites: tuple[Soundbite, ...], duration: timedelta
) -> list[tuple[FieldPath, str, object]]:
    """Each soundbite that starts or ends past the end of the audio, as (path below `soundbites`,
    message, value): its `start` when it starts at or after the end, else its `duration`."""
    end = duration.total_seconds()
    faults: list[tuple[FieldPath, str, object]] = []
    for index, soundbite in enumerate(soundbites):
        if soundbite.start >= end:
            faults.append(
                ((index, "start"), f"must be before the end of the audio, {seconds_text(end)} s", soundbite.start)
            )
        elif (reach := soundbite.end) > end:
            message = (
                f"takes the soundbite to {seconds_text(reach)} s, past the end of the audio at {seconds_text(end)} s"
            )
            faults.append(((index, "duration"), message, soundbite.duration))
    return faults
