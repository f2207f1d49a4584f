"""Contract v2 is additive: the v1 catalogue in examples/ (as it stood before v2) renders byte for byte
as it did, every page, sitemap and transcript. Its feeds differ only by the `podcast:season` and
`podcast:episode` tags that v1's `season` and `episode_number` now also give.

tests/golden/examples-v1.json holds the SHA-256 of every file that render wrote before v2; it is
never regenerated."""

import hashlib
import json
import re

import pytest

from podpages.cli.source_folder import read_source_folder
from podpages.render.whole_site import render_site
from podpages.settings import Settings
from support.paths import ROOT

GOLDEN = ROOT / "tests" / "golden" / "examples-v1.json"
V1_CATALOGUE = ROOT / "examples"
V1_SHOWS = ("kernel-notes", "pytorch")  # the shows examples/ held before v2
SETTINGS = Settings(site_url="https://podcasts.example.com")
ADDED_TO_FEEDS = re.compile(rb"\s*<podcast:(season|episode)>[^<]*</podcast:\1>")


def rendered() -> dict[str, bytes]:
    folder = read_source_folder(V1_CATALOGUE, SETTINGS)
    catalogs = {show: catalog for show, catalog in folder.catalogs.items() if show in V1_SHOWS}
    plans = render_site(catalogs, folder.transcripts, SETTINGS)
    return {item.key: item.body for _label, plan in plans for item in plan.puts}


def digest(key: str, body: bytes) -> str:
    if key.endswith("/feed.xml"):
        body = ADDED_TO_FEEDS.sub(b"", body)
    return hashlib.sha256(body).hexdigest()


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    return json.loads(GOLDEN.read_text())


def test_the_v1_catalogue_renders_the_same_files_with_the_same_bytes(golden):
    assert {key: digest(key, body) for key, body in rendered().items()} == golden
