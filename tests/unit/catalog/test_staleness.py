"""What a change makes stale: a publish re-renders only the pages whose content changed."""

import dataclasses

import pytest

from podpages.catalog.changes import EpisodeRemoved, TranscriptPut
from podpages.catalog.fold import fold
from podpages.catalog.staleness import TranscriptUpdate, stale
from podpages.contract.companion_transcripts import Cue
from podpages.contract.source_keys import parse_source_key
from podpages.render import pages, sitemaps
from podpages.render.feed import feed
from support.catalogs import SETTINGS, daily_catalog, episode_document, put_episode, put_show, show_document


def page_bytes(catalog):
    return {entry.slug: pages.episode_page(catalog, entry.slug, SETTINGS).body for entry in catalog.episodes}


def changed_pages(before, after):
    """The ground truth: pages whose bytes differ, or that appeared or vanished."""
    old, new = page_bytes(before), page_bytes(after)
    return {slug for slug in old.keys() | new.keys() if old.get(slug) != new.get(slug)}


def test_a_new_latest_episode_refreshes_itself_and_the_newest_it_joins():
    before = daily_catalog(30)
    after = before.apply(put_episode("daily", "e31", episode_document("Episode 31", "2026-02-01T09:00:00Z")), 1500)

    refresh = stale(before, after, SETTINGS.nearby_count)

    assert refresh.episodes == changed_pages(before, after) == {"e31", "e30", "e29", "e28", "e27"}
    assert refresh.years == {2026} and refresh.listings


def test_an_episode_in_the_middle_refreshes_at_most_the_nearby_count_of_neighbours():
    before = daily_catalog(30)
    after = before.apply(put_episode("daily", "mid", episode_document("Mid", "2026-01-05T21:00:00Z")), 1500)

    refresh = stale(before, after, SETTINGS.nearby_count)

    assert refresh.episodes == changed_pages(before, after)
    assert len(refresh.episodes - {"mid"}) == SETTINGS.nearby_count


def test_every_kind_of_change_refreshes_exactly_the_pages_that_changed():
    before = daily_catalog(25)
    changes = [
        put_episode("daily", "e03", episode_document("Episode 3, retitled", "2025-12-23T09:00:00Z")),
        put_episode("daily", "e10", episode_document("Episode 10, moved", "2026-01-12T09:30:00Z")),
        EpisodeRemoved(parse_source_key("episodes/daily/e20.json")),
        put_episode("daily", "first", episode_document("First", "2025-01-01T00:00:00Z")),
    ]
    for change in changes:
        after = before.apply(change, 1500)

        assert stale(before, after, SETTINGS.nearby_count).episodes == changed_pages(before, after), change
        before = after


def test_the_archive_years_touched_are_refreshed():
    before = daily_catalog(25)
    moved = before.apply(put_episode("daily", "e02", episode_document("Moved", "2026-01-20T09:00:00Z")), 1500)

    assert stale(before, moved, 8).years == {2025, 2026}


def test_an_identical_re_upload_refreshes_nothing():
    before = daily_catalog(10)
    after = before.apply(put_episode("daily", "e05", episode_document("Episode 5", "2025-12-25T09:00:00Z"), "0F"), 1500)

    assert after != before  # the sequencer is recorded
    assert not stale(before, after, 8)


def test_a_show_document_refreshes_every_page_of_the_show():
    before = daily_catalog(12)
    after = before.apply(put_show("daily", show_document("Daily Bytes")), 1500)

    refresh = stale(before, after, 8)

    assert refresh.episodes == {entry.slug for entry in before.episodes}
    assert refresh.years == {2025, 2026} and refresh.listings


def test_a_fold_publishes_the_transcripts_of_applied_uploads_and_removes_those_of_removals():
    before = daily_catalog(3)
    changes = [
        put_episode("daily", "e01", episode_document("Episode 1", "2025-12-21T09:00:00Z", transcript="Hello.")),
        put_episode("daily", "e02", episode_document("Episode 2", "2025-12-22T09:00:00Z")),
        EpisodeRemoved(parse_source_key("episodes/daily/e03.json")),
    ]

    update = fold(before, changes, SETTINGS)

    # e02 had no transcript and has none: it has no file to write or delete
    assert update.refresh.transcripts == {
        "e01": TranscriptUpdate("episodes/daily/e01.json"),
        "e03": TranscriptUpdate(None),
    }
    assert update.applied == changes and update.rejected == []


def test_an_episode_uploaded_again_with_the_same_transcript_writes_no_transcript_file():
    # Given an episode published with a transcript
    text = "Hello. " * 400  # longer than its excerpt
    published = fold(
        daily_catalog(3),
        [put_episode("daily", "e01", episode_document("Episode 1", "2025-12-21T09:00:00Z", transcript=text))],
        SETTINGS,
    ).after

    def transcripts_after(title: str, transcript: str | None) -> dict[str, TranscriptUpdate]:
        document = episode_document(title, "2025-12-21T09:00:00Z", transcript=transcript)
        return fold(published, [put_episode("daily", "e01", document)], SETTINGS).refresh.transcripts

    # A retitling with the same text writes its page, not its transcript file
    assert transcripts_after("Retitled", text) == {}
    # A text changed past the excerpt, which no page shows, writes the file
    assert transcripts_after("Episode 1", text + "Goodbye.") == {"e01": TranscriptUpdate("episodes/daily/e01.json")}
    # And a text taken away deletes it
    assert transcripts_after("Episode 1", None) == {"e01": TranscriptUpdate(None)}
    # An entry stored before the digest was kept writes it again, as it cannot tell
    stored_before = published.model_copy(
        update={
            "episodes": tuple(
                entry.model_copy(update={"transcript_digest": None}) if entry.slug == "e01" else entry
                for entry in published.episodes
            )
        }
    )
    document = episode_document("Retitled", "2025-12-21T09:00:00Z", transcript=text)
    refresh = fold(stored_before, [put_episode("daily", "e01", document)], SETTINGS).refresh
    assert refresh.transcripts == {"e01": TranscriptUpdate("episodes/daily/e01.json")}


def test_a_fold_sets_aside_a_change_the_catalog_refuses_and_applies_the_rest():
    before = daily_catalog(2)
    bad = put_episode("daily", "e01", episode_document("Episode 1", guid="a-new-guid"))
    good = put_episode("daily", "e03", episode_document("Episode 3", "2026-01-01T09:00:00Z"))

    update = fold(before, [bad, good], SETTINGS)

    assert [change for change, _ in update.rejected] == [bad]
    assert update.applied == [good]
    assert update.after.entry("e03") and update.after.entry("e01") == before.entry("e01")


def show_page_and_first_part(catalog):
    return pages.show_page(catalog, SETTINGS).body, sitemaps.show_sitemap(catalog, SETTINGS).body


@pytest.mark.parametrize(
    ("change", "show_page", "first_part"),
    [
        # An episode its page does not list, retitled: neither changes
        (put_episode("daily", "e05", episode_document("Retitled", "2025-12-25T09:00:00Z")), False, False),
        # One its page lists, retitled: the page changes, the sitemap does not
        (put_episode("daily", "e29", episode_document("Retitled", "2026-01-18T09:00:00Z")), True, False),
        # One its page does not list, published an hour later: the sitemap's lastmod changes
        (put_episode("daily", "e05", episode_document("Episode 5", "2025-12-25T10:00:00Z")), False, True),
        # A companion transcript adds a transcript page to the sitemap
        (TranscriptPut(parse_source_key("episodes/daily/e05.vtt"), (Cue(0, 1000, "Hello.", "Ada"),)), False, True),
        # A new newest episode changes both
        (put_episode("daily", "e31", episode_document("Episode 31", "2026-02-01T09:00:00Z")), True, True),
    ],
)
def test_an_edit_refreshes_the_show_page_and_the_first_sitemap_part_only_when_their_bytes_change(
    change, show_page, first_part
):
    before = daily_catalog(30)
    after = fold(before, [change], SETTINGS).after

    refresh = stale(before, after, SETTINGS.nearby_count, SETTINGS.feed_max_items)

    assert refresh.listings
    old, new = show_page_and_first_part(before), show_page_and_first_part(after)
    assert (refresh.show_page, refresh.head_sitemap) == (old[0] != new[0], old[1] != new[1]) == (show_page, first_part)


SHORT_FEED = dataclasses.replace(SETTINGS, feed_max_items=5)


def feed_bytes(catalog):
    return b"".join(feed(catalog, SHORT_FEED).parts())


@pytest.mark.parametrize(
    ("change", "differs"),
    [
        # An episode past the feed's newest five, retitled: the feed stays as it was
        (put_episode("daily", "e05", episode_document("Retitled", "2025-12-25T09:00:00Z")), False),
        # One of the newest five, retitled
        (put_episode("daily", "e28", episode_document("Retitled", "2026-01-17T09:00:00Z")), True),
        # An old one made a trailer, which the feed's channel names
        (
            put_episode("daily", "e05", episode_document("Trailer", "2025-12-25T09:00:00Z", episode_type="trailer")),
            True,
        ),
        # A new newest episode
        (put_episode("daily", "e31", episode_document("Episode 31", "2026-02-01T09:00:00Z")), True),
    ],
)
def test_an_edit_refreshes_the_feed_only_when_its_bytes_change(change, differs):
    before = daily_catalog(30)
    after = fold(before, [change], SHORT_FEED).after

    refresh = stale(before, after, SHORT_FEED.nearby_count, SHORT_FEED.feed_max_items)

    assert refresh.listings
    assert refresh.feed == (feed_bytes(before) != feed_bytes(after)) == differs
