"""On a terminal, `podpages validate` and `podpages render` count their work on bars, and what they
say meanwhile reaches the screen as whole lines above the bar, never run into it. Each runs as a
user runs it, as a process whose output is a terminal of 100 columns (a pseudo-terminal here), or
one that tells no size at all."""

import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

from support.catalogs import SITE_URL, episode_document
from support.paths import EXAMPLES


def on_a_terminal(*arguments: str, rows: int = 40, columns: int = 100) -> list[str]:
    """What `podpages <arguments>` shows on a terminal of `rows` by `columns`: each line, and each
    redraw of a bar. The environment names no size of its own (COLUMNS, LINES)."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    command = [sys.executable, "-m", "podpages.cli.main", *arguments]
    environment = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal, env=environment)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal is gone once the process has ended
            break
        if not chunk:
            break
        shown += chunk
    assert process.wait(timeout=60) in (0, 1)
    os.close(controller)
    return re.split(r"[\r\n]+", shown.decode())


def three_valid_and_one_broken(root: Path) -> Path:
    """Four episode files under `root`, the last of them broken; that one's path."""
    folder = root / "episodes" / "show"
    folder.mkdir(parents=True)
    for number in range(3):
        (folder / f"episode-{number}.json").write_text(json.dumps(episode_document(f"Episode {number}")))
    broken = folder / "episode-3.json"
    broken.write_text(json.dumps(episode_document("Broken", published="2026-01-01")))
    return broken


def test_validate_counts_the_files_on_a_bar_and_prints_each_problem_above_it(tmp_path):
    broken = three_valid_and_one_broken(tmp_path)

    shown = on_a_terminal("validate", str(tmp_path))

    assert any(line.startswith("checking: 100%") and "| 4/4 [" in line for line in shown)
    problems = [line for line in shown if str(broken) in line]
    assert problems and all(line.startswith(f"{broken}: published: ") for line in problems)
    assert "4 checked, 3 valid, 1 invalid" in shown


def test_render_counts_the_files_read_and_the_parts_rendered_with_each_show_named_above_the_bar(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(EXAMPLES, source)

    shown = on_a_terminal("render", str(source), "--out", str(tmp_path / "site"), "--site-url", SITE_URL)

    assert any(line.startswith("reading: 100%") and "| 27/27 [" in line for line in shown)
    assert any(line.startswith("rendering: 100%") for line in shown)
    # Numbered in the order the shows end, which the workers decide
    named = [line.split("] ", 1)[1] for line in shown if re.fullmatch(r"\[[1-3]/4\] .*", line)]
    assert sorted(named) == ["kernel-notes: 3 episodes", "pytorch: 16 episodes", "release-radio: 3 episodes"]
    assert (tmp_path / "site" / "pytorch" / "feed.xml").is_file()


def test_on_a_terminal_that_tells_no_size_the_bar_is_drawn_80_columns_wide(tmp_path):
    # Given a pseudo-terminal nobody sized (0 by 0), as `script` or `docker run -t` may make, on
    # which tqdm alone draws nothing at all
    three_valid_and_one_broken(tmp_path)

    # When the files are checked on it
    shown = on_a_terminal("validate", str(tmp_path), rows=0, columns=0)

    # Then the bar is drawn, as wide as a terminal of the usual 80 columns
    bars = [line for line in shown if line.startswith("checking: 100%") and "| 4/4 [" in line]
    assert bars and all(len(line) == 80 for line in bars), shown
    assert "4 checked, 3 valid, 1 invalid" in shown
