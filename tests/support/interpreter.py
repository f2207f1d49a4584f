"""Code run in an interpreter of its own, as the tests that fork or limit a process need."""

import subprocess
import sys
import textwrap


def run_alone(code: str) -> subprocess.CompletedProcess[str]:
    """`code` in a new interpreter, with no thread but its main one."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
