"""Companion transcripts in the catalog: kept with their own sequencer, before their episode too, the
WebVTT preferred; and what a batch makes of them for the transcript files."""

from podpages.catalog.changes import EpisodeRemoved, TranscriptPut, TranscriptRemoved
from podpages.catalog.fold import fold
from podpages.catalog.model import Catalog
from podpages.catalog.staleness import Refresh, TranscriptUpdate
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render.plans import transcript_plan
from support.catalogs import SETTINGS, episode_document, put_episode, put_show, show_document

CUES = (Cue(0, 2000, "Hello there.", "Ada"), Cue(2000, 4000, "Hi.", "Priya"))
VTT, SRT, JSON = "episodes/s/ep.vtt", "episodes/s/ep.srt", "episodes/s/ep.json"


def put(key: str, cues=CUES, sequencer: str | None = None) -> TranscriptPut:
    return TranscriptPut(parse_source_key(key), cues, sequencer)


def removed(key: str, sequencer: str | None = None) -> TranscriptRemoved:
    return TranscriptRemoved(parse_source_key(key), sequencer)


def published(**fields) -> Catalog:
    return Catalog(show="s").apply(put_episode("s", "ep", episode_document(**fields)), 1500)


def test_a_companion_gives_the_page_its_excerpt_with_the_speakers_named():
    catalog = published(transcript="The JSON's own words.").apply(put(VTT), 1500)

    assert catalog.excerpt(catalog.episodes[0]) == ("Ada: Hello there.", "Priya: Hi.")
    assert catalog.companion("ep").format == "vtt"


def test_a_companion_before_its_episode_is_kept_and_the_catalog_with_it():
    catalog = Catalog(show="s").apply(put(SRT), 1500)

    assert catalog.is_empty and not catalog.keeps_nothing
    assert catalog.companion("ep").format == "srt"


def test_the_webvtt_wins_in_either_order_and_the_subrip_takes_over_when_it_goes():
    both = [put(SRT), put(VTT)]
    for changes in (both, both[::-1]):
        catalog = published()
        for change in changes:
            catalog = catalog.apply(change, 1500)
        assert catalog.companion("ep").format == "vtt"

    assert catalog.apply(removed(VTT), 1500).companion("ep").format == "srt"


def test_an_older_event_for_a_companion_is_a_no_op():
    catalog = published().apply(put(VTT, sequencer="20"), 1500)
    shorter = (Cue(0, 1000, "Later words.", None),)

    assert catalog.apply(put(VTT, shorter, sequencer="10"), 1500) is catalog
    assert catalog.apply(removed(VTT, sequencer="10"), 1500) is catalog
    assert catalog.apply(removed(VTT, sequencer="30"), 1500).companion("ep") is None


def test_a_batch_publishes_the_companion_or_falls_back_to_the_jsons_text():
    before = published(transcript="Words.")

    arrived = fold(before, [put(VTT)], SETTINGS)
    gone = fold(arrived.after, [removed(VTT)], SETTINGS)

    assert arrived.refresh.transcripts == {"ep": TranscriptUpdate(VTT)}
    assert gone.refresh.transcripts == {"ep": TranscriptUpdate(JSON, had_companion=True)}
    assert "ep" in arrived.refresh.episodes and "ep" in gone.refresh.episodes  # the excerpt and link change


def test_an_episode_arriving_after_its_companion_publishes_it_and_a_removal_takes_every_file():
    waiting = Catalog(show="s").apply(put(VTT), 1500)

    arrived = fold(waiting, [put_episode("s", "ep", episode_document())], SETTINGS)
    gone = fold(arrived.after, [EpisodeRemoved(parse_source_key(JSON))], SETTINGS)

    assert arrived.refresh.transcripts == {"ep": TranscriptUpdate(VTT)}
    assert gone.refresh.transcripts == {"ep": TranscriptUpdate(None, had_companion=True)}
    assert gone.after.companion("ep") is not None  # the file is still in the source bucket


def test_a_companion_without_its_episode_publishes_nothing():
    update = fold(Catalog(show="s"), [put(VTT)], SETTINGS)

    assert update.refresh.transcripts == {"ep": TranscriptUpdate(None)}
    assert not update.refresh.episodes and not update.refresh.listings


def test_a_show_document_renders_every_transcript_page_again():
    catalog = published().apply(put(VTT), 1500)

    update = fold(catalog, [put_show("s", show_document("Renamed"))], SETTINGS)

    # The page, which shows the show's title: not the files, which do not
    assert update.refresh.transcripts == {"ep": TranscriptUpdate(VTT, files=False)}


def test_an_edit_of_an_episode_with_a_companion_renders_its_transcript_page_alone():
    catalog = published(transcript="The JSON's own words.").apply(put(VTT), 1500)

    retitled = fold(
        catalog, [put_episode("s", "ep", episode_document("Retitled", transcript="Other words."))], SETTINGS
    )
    plan = transcript_plan(retitled.after, "ep", retitled.refresh.transcripts["ep"], SETTINGS, {VTT: CUES})

    # The JSON's text gives way to the companion's, whose files stay as they are: its page shows
    # the episode's title, and is written alone
    assert retitled.refresh.transcripts == {"ep": TranscriptUpdate(VTT, files=False)}
    assert [item.key for item in plan.puts] == ["s/ep/transcript/index.html"] and plan.deletes == []
    # And a fold again after a lost race, whose first fold wrote the files, still writes them
    written = Refresh(transcripts={"ep": TranscriptUpdate(VTT)})
    written |= retitled.refresh
    assert written.transcripts == {"ep": TranscriptUpdate(VTT)}
