"""On a terminal, `podpages validate` and `podpages render` count their work on bars, and what they
say meanwhile reaches the screen as whole lines above the bar, never run into it. Each runs as a
user runs it, as a process whose output is a terminal of 100 columns (a pseudo-terminal here)."""

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

from support.catalogs import SITE_URL, episode_document
from support.paths import EXAMPLES


def on_a_terminal(*arguments: str) -> list[str]:
    """What `podpages <arguments>` shows on a terminal: each line, and each redraw of a bar."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))  # rows, columns
    command = [sys.executable, "-m", "podpages.cli.main", *arguments]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal)
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


def test_validate_counts_the_files_on_a_bar_and_prints_each_problem_above_it(tmp_path):
    folder = tmp_path / "episodes" / "show"
    folder.mkdir(parents=True)
    for number in range(3):
        (folder / f"episode-{number}.json").write_text(json.dumps(episode_document(f"Episode {number}")))
    broken = folder / "episode-3.json"
    broken.write_text(json.dumps(episode_document("Broken", published="2026-01-01")))

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
