"""The acceptance tier reads our output the way crawlers and podcast apps do, with real validators
and a real browser, over HTTP from `podpages demo`.

The catalogue is examples/ unless PODPAGES_CATALOGUE names another folder laid out like the source
bucket, so the same audits run over a catalogue the project has never seen. A missing tool skips
its audit with a loud reason; under CI (PODPAGES_REQUIRE_CHECKERS=1, set by .ci/run) it fails.
"""

import os
import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

from podpages import site_paths
from podpages.catalog.model import Catalog
from podpages.cli.source_folder import SourceFolder, read_source_folder
from podpages.settings import Settings
from support.demo import Demo
from support.paths import EXAMPLES, ROOT

VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATALOGUE = Path(os.environ.get("PODPAGES_CATALOGUE") or EXAMPLES)


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


@dataclass
class PublishedSite:
    """The catalogue, published through the local stack and served over HTTP."""

    demo: Demo
    catalogue: Path  # the folder published
    source: SourceFolder  # what a from-scratch read of the catalogue makes of it: the expectations

    @property
    def url(self) -> str:
        return self.demo.url

    @cached_property
    def catalogs(self) -> list[Catalog]:
        return [self.source.catalogs[show] for show in sorted(self.source.catalogs)]

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return self.demo.get(path, headers)

    def page(self, path: str) -> bytes:
        status, _headers, body = self.get(path)
        assert status == 200, path
        return body

    def episode_paths(self) -> list[str]:
        return [site_paths.episode(c.show, entry.slug) for c in self.catalogs for entry in c.episodes]

    def show_paths(self) -> list[str]:
        return [site_paths.show_home(catalog.show) for catalog in self.catalogs]

    def transcript_paths(self) -> list[str]:
        """The pages of companion transcripts."""
        return [
            site_paths.transcript_page(c.show, entry.slug)
            for c in self.catalogs
            for entry in c.episodes
            if c.companion(entry.slug)
        ]

    def archive_paths(self) -> list[str]:
        return [site_paths.archive(catalog.show, year) for catalog in self.catalogs for year in catalog.years()]


@pytest.fixture(scope="session")
def site() -> PublishedSite:
    with Demo("--examples", str(CATALOGUE), "--batching-window", "0.5", ready_within=600) as demo:
        source = read_source_folder(CATALOGUE, Settings(site_url=demo.url))
        assert source.catalogs, f"{CATALOGUE} holds no show to publish"
        yield PublishedSite(demo, CATALOGUE, source)


@pytest.fixture(scope="session")
def lighthouse(chromium) -> list[str]:
    require("Lighthouse", LIGHTHOUSE.exists(), "run `npm ci` at the project root")
    flags = " ".join(flag for flag in chromium[1:] if flag != "--headless") + " --headless=new"
    return [str(LIGHTHOUSE), f"--chrome-path={chromium[0]}", f"--chrome-flags={flags}"]
