"""Reading metadata files as `podpages validate`, `publish` and `render` do: a file past the
contract's size limit is rejected having read no more than the limit and one byte."""

import json
import tracemalloc

from podpages.cli.main import main
from podpages.cli.source_folder import read_source_folder
from podpages.contract.source_keys import MAX_DOCUMENT_BYTES
from support.catalogs import SETTINGS, episode_document

HUGE = 200 * 1024 * 1024


def test_validate_rejects_a_huge_file_as_too_large_without_reading_it_whole(tmp_path, capsys):
    # Given a 200 MB episode file (sparse: it takes no disk)
    path = tmp_path / "episodes" / "show" / "huge.json"
    path.parent.mkdir(parents=True)
    with path.open("wb") as file:
        file.truncate(HUGE)

    # When `podpages validate` checks it, with its memory traced
    tracemalloc.start()
    try:
        code = main(["validate", str(path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    # Then it is rejected as too large, naming the limit, having held little more than the limit
    rejection = f"{path}: document: is larger than {MAX_DOCUMENT_BYTES} bytes"
    assert (code, rejection in capsys.readouterr().out) == (1, True)
    assert peak < 4 * MAX_DOCUMENT_BYTES


def test_a_folder_with_two_episodes_of_one_guid_renders_the_first_and_reports_the_second(tmp_path):
    # Given two episodes of a show that name the same GUID
    for slug in ("a-first", "b-second"):
        path = tmp_path / "episodes" / "show" / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(episode_document(slug, guid="tag:example.com,2026:same")))

    # When the folder is read for a from-scratch render
    folder = read_source_folder(tmp_path, SETTINGS)

    # Then the first in key order is published and the second is reported, naming guid
    assert [entry.slug for entry in folder.catalogs["show"].episodes] == ["a-first"]
    assert [(path.name, problem.field) for path, problem in folder.problems] == [("b-second.json", "guid")]
