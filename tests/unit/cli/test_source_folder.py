"""Reading metadata files as `podpages validate`, `publish` and `render` do: a file past the
contract's size limit is rejected having read no more than the limit and one byte."""

import json
import os
import shutil
import sys
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import pytest

from podpages.catalog.companions import Companion
from podpages.cli import source_folder
from podpages.cli.main import main
from podpages.cli.source_folder import read_at_most, read_change, read_source_folder, upload_key
from podpages.contract.companion_transcripts import Cue, parse_companion
from podpages.contract.source_keys import MAX_DOCUMENT_BYTES, parse_source_key
from podpages.errors import ContractError, Problem
from support.alive import alive
from support.catalogs import SETTINGS, episode_document, show_document
from support.paths import EXAMPLES

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


def test_a_folder_is_read_show_by_show_its_uploads_alone(tmp_path):
    # Given two shows whose names sort differently alone and in a path ("a-b/" < "a/"),
    # each with episodes, a companion transcript and files that are no uploads
    for show, slug in [("a-b", "z"), ("a", "b-2"), ("a", "b"), ("a-b", "a")]:
        path = tmp_path / "episodes" / show / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(episode_document(slug)))
    (tmp_path / "episodes" / "a" / "b.vtt").write_text("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n")
    (tmp_path / "episodes" / "a" / "notes.txt").write_text("not an upload")
    (tmp_path / "episodes" / "stray.json").write_text("{}")  # not in a show's folder

    # When the folder is read for a from-scratch render
    folder = read_source_folder(tmp_path, SETTINGS)

    # Then each show holds its episodes, the companion is read, nothing else is, and nothing is refused
    assert {show: [entry.slug for entry in catalog.episodes] for show, catalog in folder.catalogs.items()} == {
        "a": ["b", "b-2"],
        "a-b": ["a", "z"],
    }
    assert [companion.slug for companion in folder.catalogs["a"].companions] == ["b"]
    assert folder.problems == []


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("/site/source/episodes/show/ep.json", "episodes/show/ep.json"),
        (Path("source/episodes/show/ep.vtt"), "episodes/show/ep.vtt"),
        ("source//shows/./show.json", "shows/show.json"),
        ("ep.json", "ep.json"),
        (".", ""),
    ],
)
def test_a_file_stands_for_the_key_its_last_parts_spell_given_as_a_string_or_a_path(path, key):
    assert upload_key(path) == key


def write_episodes_with_transcripts(root, slugs, words="The words"):
    for slug in slugs:
        path = root / "episodes" / "show" / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(episode_document(slug, transcript=f"{words} of {slug}.")))


def test_transcripts_within_their_files_share_are_held_and_the_rest_read_again_from_their_files(tmp_path, monkeypatch):
    # Given three episodes in a folder that holds 45 characters of transcript, 15 to a file: two
    # transcripts of 15 characters, and one of 22
    write_episodes_with_transcripts(tmp_path, ["a", "b"])
    write_episodes_with_transcripts(tmp_path, ["c"], words="The longer words")
    monkeypatch.setattr(source_folder, "HELD_TRANSCRIPTS", 45)

    # When the folder is read, and then every episode file changes its transcript
    transcripts = read_source_folder(tmp_path, SETTINGS).transcripts
    for path in (tmp_path / "episodes" / "show").iterdir():
        path.write_text(path.read_text().replace("The ", "New "))

    # Then the two that fit their share are what was read, held, and the third is read again from its file
    assert dict(transcripts) == {
        "episodes/show/a.json": "The words of a.",
        "episodes/show/b.json": "The words of b.",
        "episodes/show/c.json": "New longer words of c.",
    }


@pytest.mark.parametrize("files, share", [(0, 64 * 2**20), (1, 64 * 2**20), (10_000, 6_710), (100_000, 671)])
def test_a_folders_files_share_the_characters_of_transcript_held_evenly(files, share):
    assert source_folder.held_share(files) == share
    assert source_folder.held_share(files) * max(1, files) <= source_folder.HELD_TRANSCRIPTS


def test_a_transcript_read_again_that_has_left_its_file_is_a_problem_naming_it(tmp_path, monkeypatch):
    # Given an episode whose transcript is not held, and is then taken out of its file
    write_episodes_with_transcripts(tmp_path, ["a"])
    monkeypatch.setattr(source_folder, "HELD_TRANSCRIPTS", 0)
    transcripts = read_source_folder(tmp_path, SETTINGS).transcripts
    (tmp_path / "episodes" / "show" / "a.json").write_text(json.dumps(episode_document("a")))

    # When it is asked for, then the problem names the transcript and the upload
    with pytest.raises(ContractError, match="is gone from episodes/show/a.json") as raised:
        transcripts["episodes/show/a.json"]
    assert [problem.field for problem in raised.value.problems] == ["transcript"]


def test_a_transcript_read_again_from_a_file_no_longer_json_is_a_problem_naming_it(tmp_path, monkeypatch):
    # Given an episode whose transcript is not held, and whose file is then rewritten half-way
    write_episodes_with_transcripts(tmp_path, ["a"])
    monkeypatch.setattr(source_folder, "HELD_TRANSCRIPTS", 0)
    transcripts = read_source_folder(tmp_path, SETTINGS).transcripts
    path = tmp_path / "episodes" / "show" / "a.json"
    path.write_bytes(path.read_bytes()[:40])

    # When it is asked for, then the problem names the transcript and the upload
    with pytest.raises(ContractError, match="is gone from episodes/show/a.json"):
        transcripts["episodes/show/a.json"]


def test_an_episode_file_is_read_with_a_buffer_of_its_own_size_not_the_limit(tmp_path):
    # Given a 3 KB episode file
    path = tmp_path / "episodes" / "show" / "small.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(episode_document("small", summary="s" * 3000)))

    # When it is read, with its memory traced
    tracemalloc.start()
    try:
        change = read_change(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    # Then it is read whole, and no buffer of the 1 MiB limit was made for it
    assert change.source.key == "episodes/show/small.json"
    assert peak < MAX_DOCUMENT_BYTES // 8


def test_a_file_that_grew_since_its_size_was_taken_is_read_on_to_the_limit(tmp_path, monkeypatch):
    # Given a file of 5,000 bytes whose size the system reports as 100, as if it grew since
    path = tmp_path / "grown.json"
    path.write_bytes(b"x" * 5_000)
    monkeypatch.setattr(os, "fstat", lambda fd: SimpleNamespace(st_size=100))

    # When at most 4,001 bytes of it are read, and then at most 10,000
    capped = read_at_most(path, 4_001)
    whole = read_at_most(path, 10_000)

    # Then the first read stops at its limit, and the second takes the whole file
    assert (len(capped), len(whole)) == (4_001, 5_000)


@pytest.mark.parametrize(
    ("progress", "terminal", "shown"), [(True, False, True), (None, True, True), (None, False, False)]
)
def test_the_files_read_are_counted_on_a_bar_where_asked_or_on_a_terminal(
    progress, terminal, shown, tmp_path, capsys, monkeypatch
):
    # Given a show of three episode files
    for slug in ("a", "b", "c"):
        path = tmp_path / "episodes" / "show" / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(episode_document(slug)))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)

    # When the folder is read
    folder = read_source_folder(tmp_path, SETTINGS, progress=progress)

    # Then the bar counts the three of three where it is shown, and nothing is written where it is not
    err = capsys.readouterr().err
    assert len(folder.catalogs["show"].episodes) == 3
    assert ("reading: 100%" in err and "3/3" in err) if shown else err == ""


def test_what_is_done_meanwhile_runs_once_the_files_are_handed_over_before_any_is_read(tmp_path):
    # Given a folder of two episodes, and a map that notes when each file is read
    for slug in ("one", "two"):
        path = tmp_path / "episodes" / "show" / f"{slug}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(episode_document(slug)))
    happened: list[str] = []

    def run(read, paths):
        happened.append("handed over")

        def reads():
            for path in paths:
                happened.append(f"read {Path(path).name}")
                yield from read([path])

        return reads()

    # When the folder is read with something to do meanwhile
    folder = read_source_folder(tmp_path, SETTINGS, run, meanwhile=lambda: happened.append("meanwhile"))

    # Then it ran after the files were handed over and before the first was read, once
    assert happened == ["handed over", "meanwhile", "read one.json", "read two.json"]
    assert [entry.slug for entry in folder.catalogs["show"].episodes] == ["one", "two"]


def test_a_run_of_files_read_at_once_gives_each_file_what_it_gives_read_alone(tmp_path):
    # Given a show's document, episodes with notes and without, a file the contract refuses and one
    # that cannot be read
    (tmp_path / "shows").mkdir()
    (tmp_path / "shows" / "show.json").write_text(json.dumps(show_document("The show")))
    folder = tmp_path / "episodes" / "show"
    folder.mkdir(parents=True)
    for number in range(7):
        notes = {"notes": f"Notes of *episode {number}*."} if number % 3 else {}
        day = f"2026-01-0{number + 1}T10:00:00Z"
        folder.joinpath(f"ep-{number}.json").write_text(json.dumps(episode_document(f"Ep {number}", day, **notes)))
    folder.joinpath("ep-3.json").write_text(json.dumps({"title": "No more than a title"}))
    folder.joinpath("ep-7.json").symlink_to(tmp_path / "gone.json")  # listed, and cannot be read

    # When the files are read in runs, and again a file to a run
    in_runs = read_source_folder(tmp_path, SETTINGS)
    one_by_one = read_source_folder(
        tmp_path, SETTINGS, lambda read, paths: (item for path in paths for item in read([path]))
    )

    # Then both read the same: each episode with its own notes, and the refused file's problems
    assert in_runs.catalogs == one_by_one.catalogs
    assert in_runs.problems == one_by_one.problems
    assert {path.name for path, _ in in_runs.problems} == {"ep-3.json", "ep-7.json"}
    assert (folder / "ep-7.json", Problem("document", "cannot be read: No such file or directory")) in in_runs.problems
    notes = {entry.slug: entry.notes() for entry in in_runs.catalogs["show"].episodes}
    assert notes == {
        "ep-0": None,
        "ep-1": "<p>Notes of <em>episode 1</em>.</p>",
        "ep-2": "<p>Notes of <em>episode 2</em>.</p>",
        "ep-4": "<p>Notes of <em>episode 4</em>.</p>",
        "ep-5": "<p>Notes of <em>episode 5</em>.</p>",
        "ep-6": None,
    }


def test_a_companions_cues_are_set_down_in_a_spool_not_held_and_read_back_as_they_were_read(tmp_path):
    # Given a show of an episode with a WebVTT companion and one with a SubRip companion, from the examples
    shutil.copytree(EXAMPLES / "episodes" / "release-radio", tmp_path / "episodes" / "release-radio")
    companions = sorted(path for path in (tmp_path / "episodes" / "release-radio").iterdir() if path.suffix != ".json")
    cues_before = alive(Cue)

    # When the folder is read
    read = read_source_folder(tmp_path, SETTINGS)

    # Then no cue is held once it is read, not even the catalog's or the transcripts'
    assert alive(Cue) == cues_before
    # And each companion's cues come back from the spool as the file gives them, with its record in the catalog
    assert [path.suffix for path in companions] == [".srt", ".vtt"]
    for path in companions:
        key = f"episodes/release-radio/{path.name}"
        cues = parse_companion(path.read_bytes(), path.suffix[1:])
        assert read.transcripts[key] == cues and len(cues) > 3
        record = Companion.of(parse_source_key(key), cues, None, SETTINGS.excerpt_chars)
        assert record in read.catalogs["release-radio"].companions


def test_a_run_of_companions_holds_the_cues_of_one_at_a_time(tmp_path, monkeypatch):
    # Given a run of three companions of four cues each
    folder = tmp_path / "episodes" / "show"
    folder.mkdir(parents=True)
    cues = "".join(f"00:00:0{second}.000 --> 00:00:0{second + 1}.000\nWords {second}.\n\n" for second in range(4))
    for number in range(3):
        folder.joinpath(f"ep-{number}.vtt").write_text(f"WEBVTT\n\n{cues}")
    cues_before = alive(Cue)
    held: list[int] = []  # the cues alive as each companion's are pickled
    sent_back = source_folder.ReadCompanion.of

    def counting(put, excerpt_chars):
        held.append(alive(Cue) - cues_before)
        return sent_back(put, excerpt_chars)

    monkeypatch.setattr(source_folder.ReadCompanion, "of", counting)

    # When the run is read
    read = read_source_folder(tmp_path, SETTINGS)

    # Then each companion's cues are pickled before the next file is checked: never more than four alive
    assert held == [4, 4, 4]
    assert len(read.catalogs["show"].companions) == 3
