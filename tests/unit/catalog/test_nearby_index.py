"""The nearby index: what the nearby API reads instead of the catalog. It answers exactly as the
catalog would, in a fraction of its bytes."""

import json

from podpages.catalog.nearby_index import nearby_index
from podpages.nearby.index import CatalogIndex
from support.catalogs import daily_catalog, episode_document, example_folder, indexed, put_episode


def test_it_indexes_every_example_show_as_its_catalog_does():
    for catalog in example_folder().catalogs.values():
        assert CatalogIndex.from_nearby_json(nearby_index(catalog)) == indexed(catalog), catalog.show


def test_fractional_durations_and_shows_without_a_document_read_back_as_the_catalog_has_them():
    catalog = daily_catalog(3).apply(
        put_episode("daily", "long", episode_document("Long", duration="PT1H30M0.5S")), 1500
    )

    from_index = CatalogIndex.from_nearby_json(nearby_index(catalog))

    assert from_index == indexed(catalog)
    assert from_index.episode("long").duration == "PT1H30M0.5S" and from_index.episode("long").duration_seconds == 5400
    assert from_index.show_title == "daily"


def test_it_holds_four_fields_an_episode_and_stays_small():
    catalog = daily_catalog(500)

    body = nearby_index(catalog)

    assert json.loads(body)["episodes"][0] == ["e01", "Episode 1", "2025-12-21T09:00:00Z", 245]
    assert len(body) < len(catalog.model_dump_json()) / 5
    assert len(body) / 500 < 60  # bytes an episode, with a short slug and title
