"""Where `podpages render` may write, and what `--force` may delete: only what an earlier render
listed in its manifest, never the source, the working directory, the home folder or the root, and
never a folder full of files no render wrote."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from podpages.cli.main import main
from podpages.cli.site_folder import MANIFEST, SiteFolder
from podpages.cli.source_folder import read_source_folder
from podpages.render.site_objects import plain_text
from podpages.render.whole_site import render_site
from podpages.settings import Settings
from support.catalogs import SITE_URL, episode_document
from support.folders import contents
from support.paths import EXAMPLES

SEED_PAGE = "pytorch/backend-flexibility-revolution/index.html"


@pytest.fixture
def source(tmp_path):
    folder = tmp_path / "source"
    shutil.copytree(EXAMPLES, folder)
    return folder


def render(source: Path, out: Path | str, *options: str) -> int:
    return main(["render", str(source), "--out", str(out), "--site-url", SITE_URL, *options])


def user_folder(folder: Path) -> Path:
    """A folder of the user's own, holding one file of theirs."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").write_text("mine")
    return folder


@pytest.mark.parametrize(
    ("out", "reason"),
    [
        ("source", "is the source folder"),
        ("parent", "holds the source folder"),
        ("working directory", "is the working directory"),
        ("home", "is the home folder"),
    ],
)
def test_render_with_force_refuses_an_output_it_would_spoil_and_leaves_it_intact(
    out, reason, source, tmp_path, monkeypatch, capsys
):
    # Given an --out that is the source, holds it, or is the working directory or the home folder
    folders = {
        "source": source,
        "parent": source.parent,
        "working directory": user_folder(tmp_path / "work"),
        "home": user_folder(tmp_path / "home"),
    }
    monkeypatch.chdir(folders["working directory"])
    monkeypatch.setenv("HOME", str(folders["home"]))
    named = "." if out == "working directory" else folders[out]
    before = contents(folders[out])

    # When it is rendered into, with --force
    code = render(source, named, "--force")

    # Then it is refused, saying why, and nothing in it is touched
    assert (code, reason in capsys.readouterr().err, contents(folders[out])) == (2, True, before)


def test_render_refuses_the_file_system_root_as_its_output(source, capsys):
    # Given / as --out (never with --force: a regression must not be able to empty the machine)
    # When it is rendered into
    code = render(source, "/")

    # Then it is refused, naming the root
    assert (code, "is the file system's root" in capsys.readouterr().err) == (2, True)


def test_render_with_force_refuses_a_folder_no_render_wrote_and_leaves_it_intact(source, tmp_path, capsys):
    # Given a folder of the user's own, with no render's manifest
    out = user_folder(tmp_path / "site")

    # When it is rendered into, with --force
    code = render(source, out, "--force")

    # Then it is refused, saying why, and the user's file is still there
    assert (code, f"no {MANIFEST}" in capsys.readouterr().err, contents(out)) == (2, True, {"notes.txt": b"mine"})


def test_render_without_force_refuses_to_replace_an_earlier_render(source, tmp_path, capsys):
    # Given an earlier render
    out = tmp_path / "site"
    assert render(source, out) == 0
    before = contents(out)

    # When rendered again without --force
    code = render(source, out)

    # Then it is refused, pointing at --force, and the earlier render stands
    assert (code, "pass --force" in capsys.readouterr().err, contents(out)) == (2, True, before)


@pytest.mark.parametrize("added", ["notes.txt", "pytorch/notes.txt"])
def test_a_forced_render_keeps_a_file_the_user_added_beside_the_earlier_render(added, source, tmp_path):
    # Given an earlier render, and a file of the user's beside it or among its pages
    out = tmp_path / "site"
    assert render(source, out) == 0
    (out / added).write_text("mine")

    # When rendered again with --force
    assert render(source, out, "--force") == 0

    # Then the user's file is untouched
    assert (out / added).read_text() == "mine"


def test_a_forced_render_removes_what_the_earlier_render_wrote_and_this_one_does_not(source, tmp_path):
    # Given an earlier render, then an episode taken out of the source
    out = tmp_path / "site"
    assert render(source, out) == 0
    (source / "episodes" / "pytorch" / "backend-flexibility-revolution.json").unlink()

    # When rendered again with --force
    assert render(source, out, "--force") == 0

    # Then the episode's page and its folder are gone
    assert not (out / SEED_PAGE).parent.exists()


@pytest.mark.parametrize("listed", ["../elsewhere/notes.txt", "pytorch/../../elsewhere/notes.txt", "pytorch/.."])
def test_a_forced_render_refuses_a_manifest_that_lists_a_file_outside_its_folder(listed, source, tmp_path, capsys):
    # Given an earlier render whose manifest was edited to list, last, a file beside the folder
    out = tmp_path / "site"
    assert render(source, out) == 0
    outside = user_folder(tmp_path / "elsewhere") / "notes.txt"
    with (out / MANIFEST).open("a") as manifest:
        manifest.write(json.dumps(listed) + "\n")
    before = contents(out)

    # When rendered again with --force
    code = render(source, out, "--force")

    # Then it is refused before anything is deleted: the file outside and the earlier render are untouched
    assert (code, "outside" in capsys.readouterr().err, outside.read_text()) == (2, True, "mine")
    assert contents(out) == before


def test_a_forced_render_deletes_a_link_left_in_place_of_a_page_and_not_what_it_leads_to(source, tmp_path):
    # Given an earlier render, one of whose pages is now a link to a file outside the folder
    out, outside = tmp_path / "site", user_folder(tmp_path / "elsewhere") / "notes.txt"
    assert render(source, out) == 0
    (out / SEED_PAGE).unlink()
    (out / SEED_PAGE).symlink_to(outside)

    # When rendered again with --force
    assert render(source, out, "--force") == 0

    # Then the link made way for the page, and the file it led to is untouched
    assert not (out / SEED_PAGE).is_symlink() and b"<!doctype html>" in (out / SEED_PAGE).read_bytes()
    assert outside.read_text() == "mine"


@pytest.mark.parametrize("feed_max_items", ["1000", "2"])
def test_the_output_is_the_same_byte_for_byte_whatever_the_number_of_workers(source, tmp_path, feed_max_items):
    # In a process of its own, as a user runs it: the workers fork it, which a test process with
    # threads of its own must not be. With feeds of 2, the feed's archives and the year archives
    # are shared out in runs of their own.
    for out, workers in (("one", "1"), ("three", "3")):
        command = [sys.executable, "-m", "podpages.cli.main", "render", str(source), "--out", str(tmp_path / out)]
        options = ["--site-url", SITE_URL, "--workers", workers, "--feed-max-items", feed_max_items]
        subprocess.run([*command, *options], check=True, capture_output=True)

    one, three = contents(tmp_path / "one"), contents(tmp_path / "three")
    archives = [key for key in one if "/feed-archive-" in key]
    assert (len(archives) >= 6) == (feed_max_items == "2"), archives
    # The manifest lists each file once, in the order the workers wrote them.
    manifests = [sorted(folder.pop(MANIFEST).decode().splitlines()) for folder in (one, three)]
    assert one == three and len(one) > 50
    assert manifests[0] == manifests[1] == sorted(json.dumps(key) for key in one)


def test_a_render_writes_through_no_link_left_in_its_folder(tmp_path):
    # Given a site folder holding a link, named as a page, that leads outside it
    out, outside = tmp_path / "site", tmp_path / "outside.html"
    (out / "show").mkdir(parents=True)
    outside.write_text("not the site's")
    (out / "show" / "index.html").symlink_to(outside)

    # When the page is written, Then the link is refused, not followed
    with pytest.raises(OSError):
        SiteFolder(out).apply([plain_text("show/index.html", "the page")], [])
    assert outside.read_text() == "not the site's"


@pytest.mark.parametrize("key", ["../outside/index.html", "show/../../outside/index.html"])
def test_a_key_that_leaves_the_site_folder_is_refused_before_any_folder_is_made(tmp_path, key):
    (tmp_path / "site").mkdir()

    with pytest.raises(ValueError, match="leaves the site folder"):
        SiteFolder(tmp_path / "site").apply([plain_text(key, "x")], [])

    assert not (tmp_path / "outside").exists() and not (tmp_path / "site" / "show").exists()


def test_a_render_makes_no_folder_through_a_link_left_in_its_folder(tmp_path):
    # Given a site folder holding a link, named as a show's folder, that leads outside it
    out, outside = tmp_path / "site", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "show").symlink_to(outside, target_is_directory=True)

    # When a page is written below it, Then the link is refused, and nothing is made outside
    with pytest.raises(ValueError, match="leaves the site folder"):
        SiteFolder(out).apply([plain_text("show/episode-1/index.html", "the page")], [])
    assert list(outside.iterdir()) == []


def test_a_render_writes_into_folders_that_an_earlier_render_or_the_user_made(tmp_path):
    out = tmp_path / "site"
    (out / "show" / "episode-1").mkdir(parents=True)

    SiteFolder(out).apply([plain_text("show/episode-1/index.html", "one"), plain_text("show/index.html", "two")], [])

    assert (out / "show" / "episode-1" / "index.html").read_text() == "one"
    assert (out / "show" / "index.html").read_text() == "two"


def rendered_on_three_workers(source: Path, out: Path, settings: Settings) -> dict[str, bytes]:
    """What `podpages render` writes, on 3 workers in a process of its own, as a user runs it."""
    command = [sys.executable, "-m", "podpages.cli.main", "render", str(source), "--out", str(out)]
    options = ["--site-url", settings.site_url, "--workers", "3", "--feed-max-items", str(settings.feed_max_items)]
    subprocess.run([*command, *options], check=True)
    written = contents(out)
    written.pop(MANIFEST)
    return written


def from_scratch(source: Path, settings: Settings) -> dict[str, bytes]:
    """What `render.whole_site`, which the publish path is held to, renders of the folder."""
    folder = read_source_folder(source, settings)
    return {
        item.key: item.body
        for _show, plan in render_site(folder.catalogs, folder.transcripts, settings)
        for item in plan.puts
    }


def test_a_render_on_workers_is_the_from_scratch_render_the_publish_path_is_held_to(source, tmp_path):
    # Given feeds of 2, so that the pages, the year archives and the feed's archives are each
    # shared out among 3 workers in runs of their own
    settings = Settings(site_url=SITE_URL, feed_max_items=2)

    written = rendered_on_three_workers(source, tmp_path / "site", settings)

    # Then the folder holds exactly what `render.whole_site` renders, byte for byte
    expected = from_scratch(source, settings)
    assert written == expected and len([key for key in expected if "/feed-archive-" in key]) >= 6


def test_a_render_of_many_small_shows_on_workers_is_the_from_scratch_render(source, tmp_path):
    # Given twelve shows of one or two episodes beside the examples' three: the small shows, and
    # the examples' two of 3 episodes, are each rendered whole as one task, the third in runs
    for number in range(12):
        for episode in range(1 + number % 2):
            document = episode_document(
                f"Episode {episode} of show {number}", f"2026-0{1 + episode}-0{1 + number % 9}T10:00:00Z"
            )
            path = source / "episodes" / f"small-{number:02d}" / f"episode-{episode}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(document))
    settings = Settings(site_url=SITE_URL, feed_max_items=2)

    written = rendered_on_three_workers(source, tmp_path / "site", settings)

    # Then the folder holds exactly what `render.whole_site` renders, byte for byte
    expected = from_scratch(source, settings)
    assert written == expected and len([key for key in expected if key.startswith("small-")]) > 12 * 3


def test_a_file_the_system_takes_a_few_bytes_at_a_time_is_written_whole(tmp_path, monkeypatch):
    # Given a system that accepts at most 7 bytes a write, as a full disk or a signal may make it
    write = os.write
    monkeypatch.setattr(os, "write", lambda descriptor, data: write(descriptor, bytes(data[:7])))
    text = "A transcript of some length. " * 20

    # When a render writes a file into its folder
    SiteFolder(tmp_path).apply([plain_text("/show/episode/transcript.txt", text)], [])

    # Then the file, and the manifest that lists it, are whole
    assert (tmp_path / "show" / "episode" / "transcript.txt").read_text() == text
    assert (tmp_path / MANIFEST).read_text() == '"show/episode/transcript.txt"\n'
