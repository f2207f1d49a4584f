"""What the CLI prints. Much of it echoes data (upload keys, problems that quote them, paths), and
data may hold characters a terminal obeys: ESC sequences that clear the screen or move the cursor,
a newline that fakes a line of our own, bidi controls that reorder what is shown. Each line goes
out with those written as escapes instead."""

import re
from typing import TextIO

# C0 (tab and newline included: one line must stay one line), DEL, C1, and the bidi controls.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def shown(text: str) -> str:
    """`text` with each control character written as its Python escape (`\\x1b`, `\\n`, `\\u202e`),
    so that it is seen rather than obeyed."""
    return _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)


def echo(line: str, file: TextIO | None = None) -> None:
    """Print one line, made safe to show, to `file` (standard output when None). Flushed, so that a
    pipe reading the demo's output sees each line as it happens; the line and its end in one write,
    so that lines printed from several threads at once never run into each other."""
    print(shown(line) + "\n", end="", file=file, flush=True)
