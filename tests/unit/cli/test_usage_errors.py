"""A bug is not bad input: only what a user can fix (an option, a folder, a setting) is a usage
error, said in one line with exit code 2. Anything else leaves `podpages` with its traceback."""

import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap

import pytest
from pydantic import ValidationError

from podpages.cli import main as cli
from podpages.cli import render, source_folder
from podpages.cli.rebuild import rebuild
from podpages.cli.targets import Target
from podpages.errors import UsageError
from support.catalogs import SITE_URL, episode_document
from support.paths import EXAMPLES


@pytest.fixture
def source(tmp_path):
    folder = tmp_path / "source"
    shutil.copytree(EXAMPLES, folder)
    return folder


@pytest.mark.parametrize(
    "bug",
    [ValueError("a bug"), json.JSONDecodeError("a bug", "{", 1), UnicodeDecodeError("utf-8", b"\xff", 0, 1, "a bug")],
)
def test_a_bug_in_a_command_surfaces_with_its_traceback_instead_of_exit_2(bug, source, tmp_path, monkeypatch):
    # Given a render that meets a bug while reading the source folder
    def broken(*args: object, **options: object) -> None:
        raise bug

    monkeypatch.setattr(render, "read_source_folder", broken)

    # When it runs, Then the bug leaves the command as itself
    with pytest.raises(type(bug), match="a bug"):
        cli.main(["render", str(source), "--out", str(tmp_path / "site"), "--site-url", SITE_URL])


def test_a_transcript_gone_from_its_file_while_the_site_is_rendered_is_one_line_that_exits_2(
    tmp_path, monkeypatch, capsys
):
    # Given a folder whose transcripts are not held, read again as the site is written, and an
    # episode file that loses its transcript once the folder is read
    episodes = tmp_path / "source" / "episodes" / "show"
    episodes.mkdir(parents=True)
    document = episode_document("Episode", transcript="The words.")
    (episodes / "a.json").write_text(json.dumps(document))
    monkeypatch.setattr(source_folder, "HELD_TRANSCRIPTS", 0)
    render_site = render._render_site

    def edited_meanwhile(*args: object, **options: object) -> int:
        (episodes / "a.json").write_text(json.dumps({**document, "transcript": None}))
        return render_site(*args, **options)

    monkeypatch.setattr(render, "_render_site", edited_meanwhile)

    # When it is rendered
    arguments = ["render", str(tmp_path / "source"), "--out", str(tmp_path / "site"), "--site-url", SITE_URL]
    code = cli.main([*arguments, "--workers", "1"])

    # Then the command names the upload and the field, says why, and exits 2
    assert (code, capsys.readouterr().err) == (
        2,
        "podpages: transcript: is gone from episodes/show/a.json since it was read; the source folder changed "
        "while it was rendered: render it again with --force\n",
    )


def test_a_missing_source_folder_is_a_usage_error_that_exits_2(tmp_path, capsys):
    # Given a source folder that does not exist
    missing = tmp_path / "no-such-folder"

    # When it is rendered
    code = cli.main(["render", str(missing), "--out", str(tmp_path / "site"), "--site-url", SITE_URL])

    # Then the command says so and exits 2
    assert (code, capsys.readouterr().err) == (2, f"podpages: {missing} is not a folder\n")


def test_a_setting_that_is_not_a_number_is_a_usage_error_that_exits_2(source, tmp_path, monkeypatch, capsys):
    # Given an excerpt budget in the environment that is not a number
    monkeypatch.setenv("EXCERPT_CHARS", "many")

    # When a site is rendered
    code = cli.main(["render", str(source), "--out", str(tmp_path / "site"), "--site-url", SITE_URL])

    # Then the command names the setting and exits 2
    assert (code, "EXCERPT_CHARS must be a whole number" in capsys.readouterr().err) == (2, True)


def test_a_rebuild_of_a_show_that_is_not_published_is_a_usage_error_before_anything_is_queued(s3):
    # Given a stack with no catalogs, and no queue client: anything sent would fail otherwise
    target = Target(s3, None, "source-bucket", rebuild_queue_url="https://queue.example/rebuild")

    # When a show is named for a rebuild, Then it is a usage error naming the show
    with pytest.raises(UsageError, match="show 'no-such-show' has no catalog"):
        rebuild(target, ["no-such-show"], wait=0)


def test_a_corrupt_catalog_met_by_a_rebuild_is_a_bug_not_a_usage_error(s3, monkeypatch):
    # Given a show whose stored catalog is not JSON
    s3.put_object(Bucket="source-bucket", Key="catalog/pytorch.json", Body=b"{")
    target = Target(s3, None, "source-bucket", rebuild_queue_url="https://queue.example/rebuild")
    monkeypatch.setattr(cli, "_target", lambda args: target)

    # When `podpages rebuild` reads it, Then the parser's error leaves the command as itself
    with pytest.raises(ValidationError, match="Invalid JSON"):
        cli.main(["rebuild", "--show", "pytorch", "--wait", "0"])


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("command", [["status"], ["publish", str(EXAMPLES)], ["unpublish", "shows/a.json"]])
def test_a_command_whose_endpoint_does_not_answer_is_a_usage_error_that_exits_2(command, capsys):
    # Given a local endpoint where nothing listens
    endpoint = f"http://127.0.0.1:{closed_port()}"

    # When a command that talks to S3 and SQS runs against it
    code = cli.main([*command, "--endpoint-url", endpoint])

    # Then it says nothing answers there and exits 2
    assert (code, capsys.readouterr().err) == (
        2,
        f"podpages: nothing answers at {endpoint}/: is `make demo` running?\n",
    )


STARTED_WITHOUT = ("botocore", "boto3", "jinja2", "feedgen", "lxml", "podpages.render.plans")


def render_where_no_file_may_pass(limit: int, workers: int, tmp_path) -> subprocess.CompletedProcess[str]:
    """`podpages render` of 200 episodes, in a process none of whose files may grow past `limit`
    bytes, as on a file system with that much room, its temporary files in `tmp_path / "tmp"`."""
    episodes = tmp_path / "source" / "episodes" / "show"
    episodes.mkdir(parents=True)
    for number in range(200):
        published = f"2026-01-{1 + number // 24:02d}T{number % 24:02d}:00:00Z"
        (episodes / f"e-{number:03d}.json").write_text(json.dumps(episode_document(f"Episode {number}", published)))
    (tmp_path / "tmp").mkdir()
    render_with_little_room = textwrap.dedent(f"""
        import resource, sys
        from podpages.cli.main import command
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, resource.RLIM_INFINITY))
        sys.argv = ["podpages", "render", {str(tmp_path / "source")!r}, "--out", {str(tmp_path / "site")!r},
                    "--site-url", {SITE_URL!r}, "--workers", "{workers}"]
        command()
    """)
    environment = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    return subprocess.run(
        [sys.executable, "-c", render_with_little_room], capture_output=True, text=True, env=environment, timeout=120
    )


def test_a_render_whose_workers_find_no_room_for_what_they_read_is_a_usage_error_naming_the_folder(tmp_path):
    # Given a folder for temporary files with room for no file past 16 KB, when 200 episodes are
    # rendered on two workers
    result = render_where_no_file_may_pass(16 * 1024, 2, tmp_path)

    # Then the command says where it found no room and what to do, exits 2, and writes no page
    assert (result.returncode, result.stderr) == (
        2,
        f"podpages: no room in {tmp_path / 'tmp'} for what the workers read (File too large): "
        "free some there, or name a folder with more in TMPDIR\n",
    )
    assert not list((tmp_path / "site").rglob("index.html"))


def test_a_render_that_finds_no_room_for_the_site_is_a_usage_error_naming_the_folder(tmp_path):
    # Given room for no file past 32 KB, less than the feed of 200 episodes, when they are rendered
    result = render_where_no_file_may_pass(32 * 1024, 1, tmp_path)

    # Then the command says where it found no room and what to do, and exits 2
    assert (result.returncode, result.stderr) == (
        2,
        f"podpages: no room in {tmp_path / 'site'} for the site (File too large): free some there, or "
        "render into a folder with more\n",
    )
    # And with room, --force replaces what it had begun to write
    site = tmp_path / "site"
    assert cli.main(["render", str(tmp_path / "source"), "--out", str(site), "--site-url", SITE_URL]) == 2
    assert cli.main(["render", str(tmp_path / "source"), "--out", str(site), "--site-url", SITE_URL, "--force"]) == 0
    assert len(list(site.rglob("index.html"))) >= 200


def test_validate_and_render_start_without_botocore_or_what_renders():
    """Only the commands that talk to AWS import botocore: it took 20 ms of every render's start. A
    render imports what renders its files while its workers read them (`render._ready_to_render`)."""
    imported = f"sorted(name for name in sys.modules if name.startswith({STARTED_WITHOUT}))"
    code = f"import sys, podpages.cli.main; print({imported})"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.strip() == "[]"


def test_the_command_collects_no_garbage_while_it_imports_and_turns_the_collector_back_on():
    """What its imports build lasts as long as the command: a collection during them only costs."""
    code = textwrap.dedent("""
        import gc, sys

        def importing_the_command():
            frame = sys._getframe()
            while frame is not None and not frame.f_code.co_filename.endswith("podpages/cli/main.py"):
                frame = frame.f_back
            return frame is not None

        passes = []
        def note(phase, info):
            if phase == "start" and importing_the_command():
                passes.append(info["generation"])

        gc.callbacks.append(note)
        import podpages.cli.main
        print(len(passes), gc.isenabled())
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.split() == ["0", "True"]
