"""The acceptance tier runs real validators. A missing tool skips its audit with a loud reason here;
under CI (PODPAGES_REQUIRE_CHECKERS=1, set by .ci/run) it fails instead."""

import os
import shutil
from pathlib import Path

import pytest

from support.paths import ROOT

VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def require(tool: str, present: bool, how: str) -> None:
    if present:
        return
    message = f"AUDIT SKIPPED: {tool} is missing ({how})"
    if os.environ.get("PODPAGES_REQUIRE_CHECKERS"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def vnu() -> list[str]:
    require("java", shutil.which("java") is not None, "install a Java runtime, 11 or newer")
    require("the Nu HTML Checker", VNU_JAR.exists(), "run `npm ci` at the project root")
    return ["java", "-jar", str(Path(VNU_JAR))]


@pytest.fixture(scope="session")
def chromium() -> list[str]:
    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    require("Chromium", found is not None, "apt-get install chromium")
    return [
        found,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
