"""Upload keys: the slugs come from the key, and a bad key is named as the problem."""

import pytest

from podpages.contract.source_keys import Kind, SourceKey, is_upload_key, parse_source_key
from podpages.errors import ContractError


def test_an_episode_key_names_its_show_and_episode():
    assert parse_source_key("episodes/pytorch/backend-flexibility-revolution.json") == SourceKey(
        Kind.EPISODE, "pytorch", "backend-flexibility-revolution"
    )


def test_a_show_key_names_its_show():
    assert parse_source_key("shows/kernel-notes.json") == SourceKey(Kind.SHOW, "kernel-notes")


@pytest.mark.parametrize(
    "key",
    [
        "episodes/PyTorch/one.json",
        "episodes/pytorch/One.json",
        "episodes/../catalog/pytorch.json",
        "episodes/pytorch/../../x.json",
        "episodes/pytorch/a b.json",
        "episodes/pytorch/-leading.json",
        "episodes/pytorch/trailing-.json",
        "episodes/pytorch/deeper/one.json",
        "episodes/one.json",
        "episodes/pytorch/2026.json",
        "episodes/api/one.json",
        "shows/api.json",
        "shows/x" + "y" * 80 + ".json",
        "shows/.json",
        "catalog/pytorch.json",
    ],
)
def test_a_bad_key_is_the_problem(key):
    with pytest.raises(ContractError) as caught:
        parse_source_key(key)

    assert [problem.field for problem in caught.value.problems] == ["key"]


def test_only_upload_prefixes_are_uploads():
    assert is_upload_key("episodes/a/b.json") and is_upload_key("shows/a.json")
    assert not any(
        is_upload_key(key) for key in ("catalog/a.json", "errors/episodes/a/b.json.json", "episodes/a/b.txt")
    )


def test_a_key_round_trips():
    for key in ("episodes/a/b.json", "shows/a.json"):
        assert parse_source_key(key).key == key
