"""The catalog: ordering, sequencer rules, GUIDs fixed at first publish, show defaults."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from podpages.catalog.changes import EpisodeRemoved, ShowRemoved
from podpages.catalog.fold import fold
from podpages.catalog.model import Catalog, default_episode_guid
from podpages.cli.source_folder import read_change, upload_files
from podpages.contract.source_keys import parse_source_key
from podpages.errors import ContractError
from support.catalogs import (
    SETTINGS,
    daily_catalog,
    episode_document,
    example_folder,
    put_episode,
    put_show,
    show_document,
)
from support.paths import EXAMPLES


def removal(show, slug, sequencer=None):
    return EpisodeRemoved(parse_source_key(f"episodes/{show}/{slug}.json"), sequencer)


def test_episodes_are_kept_in_publish_order_whatever_the_upload_order():
    catalog = Catalog(show="s")
    for slug, published in [
        ("c", "2026-01-03T00:00:00Z"),
        ("a", "2026-01-01T00:00:00Z"),
        ("b", "2026-01-02T00:00:00+00:00"),
    ]:
        catalog = catalog.apply(put_episode("s", slug, episode_document(slug, published)), 1500)

    assert [entry.slug for entry in catalog.episodes] == ["a", "b", "c"]


def test_publish_order_compares_instants_not_local_times():
    catalog = Catalog(show="s")
    catalog = catalog.apply(put_episode("s", "later", episode_document("later", "2026-01-01T06:00:00-05:00")), 1500)
    catalog = catalog.apply(put_episode("s", "earlier", episode_document("earlier", "2026-01-01T10:00:00Z")), 1500)

    assert [entry.slug for entry in catalog.episodes] == ["earlier", "later"]


def test_a_catalog_survives_its_json_round_trip():
    catalog = daily_catalog(5).apply(put_show("daily", show_document()), 1500)

    assert Catalog.model_validate_json(catalog.model_dump_json()) == catalog


def test_an_older_or_equal_sequencer_is_a_no_op():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document("New"), "00B2"), 1500)

    assert catalog.apply(put_episode("s", "a", episode_document("Old"), "00B1"), 1500) is catalog
    assert catalog.apply(put_episode("s", "a", episode_document("Same"), "00B2"), 1500) is catalog
    assert catalog.apply(removal("s", "a", "00B1"), 1500) is catalog


def test_sequencers_of_different_lengths_compare_as_numbers():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document("First"), "FF"), 1500)

    catalog = catalog.apply(put_episode("s", "a", episode_document("Second"), "0100"), 1500)

    assert catalog.entry("a").episode.title == "Second"


def test_a_later_removal_unpublishes_and_a_removal_of_nothing_is_a_no_op():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document(), "0A"), 1500)

    assert catalog.apply(removal("s", "a", "0B"), 1500).entry("a") is None
    assert catalog.apply(removal("s", "zzz"), 1500) is catalog


def test_events_without_sequencers_apply_in_arrival_order():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document("One")), 1500)

    assert catalog.apply(put_episode("s", "a", episode_document("Two")), 1500).entry("a").episode.title == "Two"


def test_the_default_guid_comes_from_the_slugs_and_stays_across_re_uploads():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document("One")), 1500)
    catalog = catalog.apply(put_episode("s", "a", episode_document("One, edited")), 1500)

    assert catalog.entry("a").guid == default_episode_guid("s", "a")
    assert default_episode_guid("s", "a") != default_episode_guid("t", "a")


def test_a_guid_already_used_by_another_episode_of_the_show_is_rejected_naming_guid():
    # Given an episode published with a GUID of its own
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document(guid="tag:example.com,2026:a")), 1500)

    # When another episode of the show names the same GUID
    with pytest.raises(ContractError) as caught:
        catalog.apply(put_episode("s", "b", episode_document(guid="tag:example.com,2026:a")), 1500)

    # Then it is refused, naming guid and the episode that holds it
    assert [(problem.field, "'a'" in problem.message) for problem in caught.value.problems] == [("guid", True)]


def test_an_episode_may_be_re_uploaded_with_its_own_guid():
    first = Catalog(show="s").apply(put_episode("s", "a", episode_document(guid="g-1")), 1500)

    again = first.apply(put_episode("s", "a", episode_document("New title", guid="g-1")), 1500)

    assert again.entry("a").title == "New title"


def test_a_guid_is_fixed_at_first_publish():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document(guid="tag:example.com,2026:a")), 1500)

    with pytest.raises(ContractError) as caught:
        catalog.apply(put_episode("s", "a", episode_document(guid="something-else")), 1500)

    assert caught.value.problems[0].field == "guid"
    with pytest.raises(ContractError):
        catalog.apply(put_episode("s", "a", episode_document()), 1500)


def test_the_catalog_keeps_the_excerpt_not_the_transcript():
    transcript = "First paragraph.\n\n" + "word " * 1000
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document(transcript=transcript)), 100)
    entry = catalog.entry("a")

    assert entry.transcript is True and entry.episode.transcript is None
    assert entry.excerpt[0] == "First paragraph." and entry.excerpt[-1].endswith("…")
    assert "word " * 100 not in catalog.model_dump_json()


def test_a_show_without_a_document_is_rendered_with_defaults_until_one_arrives():
    catalog = daily_catalog(1)

    assert catalog.show_document.title == "daily" and catalog.show_document.language == "en"
    with_document = catalog.apply(put_show("daily", show_document("Daily Bytes")), 1500)
    assert with_document.show_document.title == "Daily Bytes"
    removed = with_document.apply(ShowRemoved(parse_source_key("shows/daily.json")), 1500)
    assert removed.document is None and removed.show_document.title == "daily"


def test_an_empty_catalog_is_one_with_no_document_and_no_episodes():
    assert Catalog(show="s").is_empty
    assert not Catalog(show="s").apply(put_show("s", show_document()), 1500).is_empty


def test_listings_come_newest_first_and_by_year():
    catalog = daily_catalog(20)  # 21 Dec 2025 to 9 Jan 2026

    assert [entry.slug for entry in catalog.newest(3)] == ["e20", "e19", "e18"]
    assert catalog.years() == [2026, 2025]
    assert [entry.slug for entry in catalog.in_year(2025)] == [f"e{n:02d}" for n in range(11, 0, -1)]


def test_a_folder_read_in_one_pass_builds_what_folding_its_files_one_by_one_builds():
    changes: dict[str, list] = {}
    for path in upload_files([EXAMPLES / "shows", EXAMPLES / "episodes"]):
        change = read_change(path)
        changes.setdefault(change.source.show, []).append(change)

    folded = {show: fold(Catalog(show=show), found, SETTINGS).after for show, found in changes.items()}

    assert example_folder().catalogs == folded


def serial_show() -> dict:
    return show_document("Serial", type="serial")


def test_an_episode_without_a_number_is_refused_by_a_serial_show_naming_episode_number():
    catalog = Catalog(show="s").apply(put_show("s", serial_show()), 1500)

    with pytest.raises(ContractError) as caught:
        catalog.apply(put_episode("s", "a", episode_document()), 1500)

    assert [problem.field for problem in caught.value.problems] == ["episode_number"]


def test_a_show_turning_serial_over_unnumbered_episodes_is_refused_naming_type():
    catalog = Catalog(show="s").apply(put_episode("s", "a", episode_document()), 1500)

    with pytest.raises(ContractError, match="'a'") as caught:
        catalog.apply(put_show("s", serial_show()), 1500)

    assert [problem.field for problem in caught.value.problems] == ["type"]


def test_an_entry_keeps_its_notes_as_html_and_not_as_markdown():
    catalog = Catalog(show="s").apply(
        put_episode("s", "a", episode_document(notes="See [the docs](https://d.example).")), 1500
    )

    entry = catalog.entry("a")

    assert (entry.episode.notes, entry.notes_html) == (None, '<p>See <a href="https://d.example">the docs</a>.</p>')


def test_an_entrys_publish_time_is_in_utc_kept_beside_its_fields_and_made_anew_for_a_copy():
    entry = daily_catalog(1).episodes[0]
    local = entry.episode.model_copy(
        update={"published": datetime(2026, 3, 1, 9, tzinfo=timezone(timedelta(hours=-5)))}
    )

    assert entry.published is entry.published and entry.published.tzinfo is UTC
    assert entry.__dict__.keys() == type(entry).model_fields.keys()  # kept in a slot, not in the dict of fields
    assert entry.model_copy(update={"episode": local}).published == datetime(2026, 3, 1, 14, tzinfo=UTC)
