"""Models whose input named the same fields share one set of those names, copied and unpickled too; a
copy that sets a field leaves the set it was copied from as it was."""

import json
import pickle

from podpages.catalog.layout import StoredPage
from podpages.contract.documents import parse_episode
from support.catalogs import daily_catalog, episode_document


def test_episodes_that_name_the_same_fields_share_one_set():
    first, second = (parse_episode(json.dumps(episode_document(title=title)).encode()) for title in ("One", "Two"))
    with_guid = parse_episode(json.dumps(episode_document(guid="urn:example:3")).encode())

    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    assert first.audio.__pydantic_fields_set__ is second.audio.__pydantic_fields_set__
    assert with_guid.model_fields_set == first.model_fields_set | {"guid"}


def test_a_copy_that_sets_a_field_leaves_the_shared_set_as_it_was():
    first, second = (parse_episode(json.dumps(episode_document(title=title)).encode()) for title in ("One", "Two"))
    named = set(first.model_fields_set)

    copied = first.model_copy(update={"guid": "urn:example:1"})

    assert "guid" in copied.model_fields_set
    assert first.model_fields_set == second.model_fields_set == named


def test_the_episodes_that_entries_keep_share_their_set():
    # Given entries made from uploads: each keeps a copy of its episode, its long texts left out
    made = daily_catalog(3).episodes

    # Then the copies share one set, as the episodes parsed did
    assert len({id(entry.episode.__pydantic_fields_set__) for entry in made}) == 1
    assert "notes" in made[0].episode.model_fields_set


def test_the_entries_of_a_stored_page_share_their_sets():
    page = StoredPage(show="daily", page=1, episodes=daily_catalog(3).episodes, companions=())

    parsed = StoredPage.model_validate_json(page.model_dump_json()).episodes

    assert len({id(entry.__pydantic_fields_set__) for entry in parsed}) == 1
    assert len({id(entry.episode.__pydantic_fields_set__) for entry in parsed}) == 1


def test_entries_a_render_worker_sends_back_share_their_sets():
    # Given the entries of a page, made here
    made = daily_catalog(3).episodes

    # When they cross between processes, as those a worker of `podpages render` reads do
    received = pickle.loads(pickle.dumps(made))

    # Then they hold what they held, and the models of each kind received share one set
    assert received == made
    for models in (
        received,
        [entry.episode for entry in received],
        [entry.episode.audio for entry in received],
    ):
        assert len({id(model.__pydantic_fields_set__) for model in models}) == 1
