"""A companion's cues set down on the local disk while a batch waits to publish: read back as they
were read, held by no one meanwhile, and the file gone with them."""

import gc
import os

import pytest

from podpages.catalog.changes import TranscriptPut, transcript_of
from podpages.catalog.model import Catalog
from podpages.catalog.spooled_cues import SpooledCues
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from support.alive import alive

SOURCE = parse_source_key("episodes/s/ep.vtt")


def made_cues(count: int) -> tuple[Cue, ...]:
    return tuple(Cue(second * 1000, second * 1000 + 900, f"Said at second {second}.", "Ada") for second in range(count))


def test_spooled_cues_are_held_by_no_one_until_read_and_read_back_as_they_were():
    # Given a companion's cues, set down
    before = alive(Cue)
    spooled = SpooledCues.alone(made_cues(50))

    # Then none of them is alive while they wait
    assert alive(Cue) == before
    # And each reading gives them back as they were, for its caller alone
    assert spooled.read() == made_cues(50)
    assert spooled.read() is not spooled.read()
    assert alive(Cue) == before


def test_the_file_of_spooled_cues_is_closed_once_they_are_dropped():
    # Given cues set down, and the file they wait in
    spooled = SpooledCues.alone(made_cues(3))
    descriptor = spooled._spool.fileno
    os.fstat(descriptor)

    # When they are dropped
    del spooled
    gc.collect()

    # Then so is their file
    with pytest.raises(OSError):
        os.fstat(descriptor)


def test_a_spooled_put_holds_no_cue_and_makes_the_catalog_and_transcript_a_held_one_does():
    # Given a companion's put, as read with its cues, and the same put with them set down
    before = alive(Cue)
    spooled = TranscriptPut(SOURCE, made_cues(20), "0A").spooled()
    held = TranscriptPut(SOURCE, made_cues(20), "0A")
    after_reading = alive(Cue)

    # Then the spooled one holds none of its cues: only the held one's 20 are alive
    assert after_reading - before == 20
    # And each gives the same cues, the same catalog record and the same transcript
    assert spooled.cues == held.cues
    assert spooled.source == held.source and spooled.sequencer == held.sequencer
    assert Catalog(show="s").apply(spooled, 1500) == Catalog(show="s").apply(held, 1500)
    assert transcript_of(spooled) == transcript_of(held) == made_cues(20)
    assert alive(Cue) == after_reading
