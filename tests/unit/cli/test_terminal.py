"""What the CLI echoes from data (upload keys, the problems that quote them, paths) reaches the
terminal as text to read, never as escapes it obeys: a key cannot clear the screen and print a
line of its own."""

import json
import re
from datetime import UTC, datetime

import pytest

from podpages.cli import main as cli
from podpages.cli.status import Status
from podpages.cli.targets import Target
from podpages.cli.terminal import shown
from podpages.errors import Problem
from podpages.storage.error_reports import ErrorReport
from support.catalogs import episode_document

# C0 and C1 controls, DEL, and the bidi controls; the newline is what separates the lines printed.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
HOSTILE_KEY = "episodes/show/x\x1b[2J\x1b[HFAKE: all good\n.json"


def printed(text: str) -> list[str]:
    """The lines a terminal shows, split on the newline alone, so that no other control hides."""
    return text.split("\n")


def test_status_shows_a_hostile_key_escaped_instead_of_obeying_it(monkeypatch, capsys):
    # Given an error report on a key holding ESC sequences and a newline
    written = datetime(2026, 1, 1, tzinfo=UTC)
    report = ErrorReport(HOSTILE_KEY, None, (Problem("key", f"episode slug in {HOSTILE_KEY!r} is bad\x1b[0m"),))
    monkeypatch.setattr(cli, "_target", lambda args: Target(None, None, "source-bucket"))
    monkeypatch.setattr("podpages.cli.status.status", lambda target: Status(0, 0, 0, 0, [(written, report)], 1))

    # When `podpages status` prints it
    assert cli.main(["status"]) == 0

    # Then the key is shown with its escapes written out, and nothing printed holds a control character
    out = capsys.readouterr().out
    assert f"  {written.isoformat()}  episodes/show/x\\x1b[2J\\x1b[HFAKE: all good\\n.json" in printed(out)
    assert [line for line in printed(out) if CONTROL.search(line)] == []


def test_validate_shows_a_hostile_file_name_escaped_instead_of_obeying_it(tmp_path, capsys):
    # Given an episode file whose name holds an ESC sequence and a newline
    path = tmp_path / "episodes" / "show" / "x\x1b[2J\n.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(episode_document()))

    # When `podpages validate` names it and its problem
    assert cli.main(["validate", str(path)]) == 1

    # Then nothing printed holds a control character
    assert [line for line in printed(capsys.readouterr().out) if CONTROL.search(line)] == []


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("a\nb\rc\td", "a\\nb\\rc\\td"),
        ("\x7f\x9b", "\\x7f\\x9b"),
        ("\u202eevil\u2066\u200f", "\\u202eevil\\u2066\\u200f"),
        ("épisode ☕", "épisode ☕"),
    ],
)
def test_shown_writes_control_characters_as_escapes_and_leaves_other_text_alone(text, escaped):
    assert shown(text) == escaped
