"""The record a publish's lease takes, made from its changes before the catalog is read, reaches
every page, transcript and chapters file the publish then writes ahead of its commit: random
batches of new episodes, edits that move them, and removals, folded into catalogs of any size."""

import random
from datetime import UTC, datetime, timedelta

import pytest

from podpages.catalog.changes import EpisodeRemoved, TranscriptPut
from podpages.catalog.fold import fold
from podpages.catalog.staleness import reach_of
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.publish.publisher import ahead_of
from support.catalogs import SETTINGS, daily_catalog, episode_document, put_episode, put_show, show_document

START = datetime(2025, 12, 20, 9, tzinfo=UTC)


def random_change(rng: random.Random, size: int):
    slug = f"e{rng.randint(1, size + 5):02d}"
    roll = rng.random()
    if roll < 0.2:
        return EpisodeRemoved(parse_source_key(f"episodes/daily/{slug}.json"))
    if roll < 0.3:
        return TranscriptPut(parse_source_key(f"episodes/daily/{slug}.vtt"), (Cue(1000, 2000, "Said."),))
    published = (START + timedelta(hours=rng.randint(0, 24 * (size + 2)))).strftime("%Y-%m-%dT%H:%M:%SZ")
    return put_episode("daily", slug, episode_document(f"Take {rng.random()}", published, transcript="Said."))


@pytest.mark.parametrize("seed", range(200))
def test_what_a_publish_writes_before_its_commit_lies_within_its_lease_s_record(seed):
    rng = random.Random(seed)
    size = rng.choice([0, 1, 3, 8, 30])
    before = daily_catalog(size, start=START)
    changes = [random_change(rng, size) for _ in range(rng.randint(1, 10))]

    refresh = fold(before, changes, SETTINGS).refresh
    ahead = ahead_of(changes)

    written = refresh.episodes | refresh.transcripts.keys() | refresh.chapters
    assert written <= reach_of(before, ahead.episodes, ahead.every, SETTINGS.nearby_count), changes
    assert not ahead.every


def test_a_show_document_reaches_every_page():
    before = daily_catalog(12, start=START)
    changes = [put_show("daily", show_document("Renamed")), put_episode("daily", "new", episode_document("New"))]

    ahead = ahead_of(changes)

    assert ahead.every
    assert reach_of(before, ahead.episodes, ahead.every, SETTINGS.nearby_count) == {
        *(entry.slug for entry in before.episodes),
        "new",
    }
