"""`podpages validate` and `podpages render`, run as a user runs them."""

import gc
import json
import re
import shutil
import sys

import pytest

from podpages.cli.main import command, main
from podpages.cli.render import render_folder
from podpages.cli.site_folder import open_for_render
from podpages.settings import Settings
from support.catalogs import SITE_URL, episode_document
from support.paths import EXAMPLES


@pytest.fixture
def source(tmp_path):
    folder = tmp_path / "source"
    shutil.copytree(EXAMPLES, folder)
    return folder


def write(path, document):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document) if isinstance(document, dict) else document)
    return path


def test_validate_passes_the_examples(capsys):
    assert main(["validate", str(EXAMPLES)]) == 0
    assert "27 checked, 27 valid, 0 invalid" in capsys.readouterr().err


def test_the_command_exits_with_the_status_of_main_and_leaves_what_it_made_frozen(tmp_path, monkeypatch):
    bad = write(tmp_path / "episodes" / "show" / "bad.json", episode_document(title=""))
    monkeypatch.setattr(sys, "argv", ["podpages", "validate", str(bad)])
    before = gc.get_freeze_count()

    with pytest.raises(SystemExit) as exit:
        command()

    frozen = gc.get_freeze_count()
    gc.unfreeze()
    assert exit.value.code == 1
    assert frozen > before  # the collection at exit passes over them


def test_validate_prints_one_path_field_message_line_per_problem_and_exits_1(tmp_path, capsys):
    bad = write(tmp_path / "episodes" / "show" / "bad.json", episode_document(title="", duration="PT0S", colour="red"))
    good = write(tmp_path / "episodes" / "show" / "good.json", episode_document())

    status = main(["validate", str(bad), str(good)])

    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert sorted(lines) == sorted(
        [
            f"{bad}: colour: Extra inputs are not permitted",
            f"{bad}: duration: must be at least 1 second (PT1S)",
            f"{bad}: title: String should have at least 1 character",
        ]
    )


def test_validate_names_a_bad_key_and_a_bad_document(tmp_path, capsys):
    uppercase = write(tmp_path / "episodes" / "Show" / "one.json", episode_document())
    broken = write(tmp_path / "shows" / "broken.json", "{")
    loose = write(tmp_path / "loose.json", episode_document())

    assert main(["validate", str(tmp_path)]) == 1

    out = capsys.readouterr().out
    assert f"{uppercase}: key: show slug 'Show' must match" in out
    assert f"{broken}: document: Invalid JSON" in out
    assert f"{loose}: key: expected episodes/<show>/<episode>.json" in out


def test_render_writes_the_whole_site(source, tmp_path, capsys):
    out = tmp_path / "site"

    assert main(["render", str(source), "--out", str(out), "--site-url", SITE_URL]) == 0

    written = {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()}
    assert {"robots.txt", "sitemap.xml", "cover.png", "pytorch/feed.xml", "pytorch/index.html"} <= written
    assert {"pytorch/2025/index.html", "pytorch/2026/index.html", "kernel-notes/2026/index.html"} <= written
    assert "pytorch/backend-flexibility-revolution/transcript.txt" in written
    assert "pytorch/cleanup-and-optimization-day/transcript.txt" not in written  # it has none
    assert (
        len([key for key in written if key.endswith("/index.html")]) == 22 + 3 + 4 + 2
    )  # episodes, shows, years, transcript pages
    progress = capsys.readouterr().err.splitlines()
    # Each show is named once, when the last of its files is written, and the site's own files last
    shows = sorted(line.split("] ")[1].split(":")[0] for line in progress if " episodes" in line)
    assert shows == ["kernel-notes", "pytorch", "release-radio"]
    assert progress[-2].startswith("[4/4] site files")


def test_render_counts_the_files_it_reads_and_the_parts_it_renders_on_bars_above_which_it_names_each_show(
    source, tmp_path, capsys
):
    # Given bars shown, as on a terminal, and one worker, so that the render runs here
    said = []
    site = open_for_render(tmp_path / "site", source, force=False)
    settings = Settings(site_url=SITE_URL)

    folder, _written = render_folder(source, settings, site, 1, said.append, progress=True)

    # Then the bars count up to the files read and to every part of every show (pytorch's 16
    # episodes, in runs of at most 6 on one worker, take more than one)
    bars = capsys.readouterr().err.replace("\r", "\n").splitlines()
    assert any(line.startswith("reading: 100%") and "| 27/27 [" in line for line in bars)
    drawn = [re.match(r"rendering: .*\| (\d+)/(\d+) \[", line) for line in bars]
    counts = [(int(found[1]), int(found[2])) for found in drawn if found]
    parts = counts[-1][1]
    assert counts[0] == (0, parts) and counts[-1] == (parts, parts) and counts == sorted(counts)
    assert parts > len(folder.catalogs)
    # And each show is named as its last task ends, through `say`, with the site's own files last
    named = [line.split("] ")[1].split(":")[0] for line in said]
    assert named == ["kernel-notes", "pytorch", "release-radio", "site files"]


def test_render_publishes_the_good_files_and_names_the_bad(source, tmp_path, capsys):
    write(source / "episodes" / "pytorch" / "broken.json", episode_document(published="2026-01-01"))
    out = tmp_path / "site"

    assert main(["render", str(source), "--out", str(out), "--site-url", SITE_URL]) == 1

    assert "broken.json: published:" in capsys.readouterr().err
    assert (out / "pytorch" / "backend-flexibility-revolution" / "index.html").exists()
    assert not (out / "pytorch" / "broken").exists()


def test_render_without_a_site_url_says_so(source, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)

    assert main(["render", str(source), "--out", str(tmp_path / "site")]) == 2
    assert "SITE_URL must be an http(s) URL" in capsys.readouterr().err


def test_validate_names_the_line_of_a_companion_transcript_that_does_not_parse(tmp_path, capsys):
    broken = write(
        tmp_path / "episodes" / "show" / "one.vtt", "WEBVTT\n\nNOTE fine\n\n00:00:01.000 --> 00:00:0x.000\nHi\n"
    )
    good = write(tmp_path / "episodes" / "show" / "two.srt", "1\n00:00:01,000 --> 00:00:02,000\nHello.\n")

    assert main(["validate", str(tmp_path)]) == 1

    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith(f"{broken}: line 5: cue 1: is not a WebVTT cue")
    assert str(good) not in "\n".join(out)


def test_render_publishes_a_companion_transcript_in_every_format(source, tmp_path):
    out = tmp_path / "site"

    assert main(["render", str(source), "--out", str(out), "--site-url", SITE_URL]) == 0

    episode = out / "release-radio" / "compiler-caches-explained"
    assert {path.name for path in episode.glob("transcript.*")} == {
        f"transcript.{ext}" for ext in ("vtt", "srt", "json", "txt")
    }
    assert "Priya Natarajan" in (episode / "transcript" / "index.html").read_text()
    assert (out / "release-radio" / "bonus-listener-questions" / "transcript" / "index.html").exists()
