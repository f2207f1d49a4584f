"""The seed episode's page, served by `podpages demo` and loaded in headless Chromium: the DOM a
browser builds from it, and the README's screenshot (UPDATE_SCREENSHOT=1 rewrites docs/episode-page.png;
`make screenshot` does that)."""

import os
import struct
import subprocess

from support.demo import Demo
from support.paths import ROOT

SEED_PAGE = "/pytorch/backend-flexibility-revolution/"
SCREENSHOT = ROOT / "docs" / "episode-page.png"
WINDOW = (1000, 2150)


def test_the_seed_page_in_headless_chromium_and_the_readme_s_screenshot(chromium, tmp_path):
    screenshot = SCREENSHOT if os.environ.get("UPDATE_SCREENSHOT") else tmp_path / "episode-page.png"
    profile = ["--user-data-dir=" + str(tmp_path / "profile"), f"--window-size={WINDOW[0]},{WINDOW[1]}"]

    with Demo("--batching-window", "0.5") as demo:
        url = demo.url + SEED_PAGE
        dom = subprocess.run([*chromium, *profile, "--dump-dom", url], capture_output=True, text=True, timeout=120)
        shot = subprocess.run(
            [*chromium, *profile, f"--screenshot={screenshot}", url], capture_output=True, text=True, timeout=120
        )

    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "<h1>PyTorch: Backend Flexibility Revolution</h1>" in dom.stdout
    assert 'aria-labelledby="nearby"' in dom.stdout
    assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    header = screenshot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", header[16:24]) == WINDOW
    # A blank page of this size compresses to a few KB; the rendered text takes far more.
    assert screenshot.stat().st_size > 50_000
