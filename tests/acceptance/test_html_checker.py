"""Every page type, checked by the Nu HTML Checker (vnu.jar from npm): 0 errors and 0 warnings."""

import json
import subprocess

import pytest

from podpages import nearby_listing
from podpages.catalog import Catalog
from podpages.site_render import render_site
from support.catalogs import SETTINGS, episode_document, example_folder, indexed, put_episode, put_show, show_document

TRICKY = "</script><!-- ]]> & \"quotes\" 'apostrophes' <b>tags</b> — ünïcödé 中文 עברית"


def tricky_catalog() -> Catalog:
    catalog = Catalog(show="tricky").apply(put_show("tricky", show_document(f"Show {TRICKY}", overview=TRICKY)), 1500)
    for number in range(3):
        document = episode_document(
            f"Episode {number} {TRICKY}",
            f"2026-01-0{number + 1}T10:00:00+09:00",
            transcript=f"{TRICKY}\n\n{TRICKY * 40}",
        )
        catalog = catalog.apply(put_episode("tricky", f"e{number}", document), 200)
    return catalog


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    source = example_folder()
    catalogs = source.catalogs | {"tricky": tricky_catalog()}
    for _label, plan in render_site(catalogs, source.transcripts, SETTINGS):
        for item in plan.puts:
            path = folder / item.key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(item.body)
    fragment = nearby_listing.as_html(
        indexed(catalogs["pytorch"]), "backend-flexibility-revolution", 8, SETTINGS.site_url
    )
    wrapped = (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Nearby</title>\n</head>\n'
        f"<body>\n<h1>Nearby episodes</h1>\n{fragment}</body>\n</html>\n"
    )
    (folder / "nearby-fragment.html").write_text(wrapped)
    return folder


def test_every_page_type_passes_the_nu_html_checker(vnu, site):
    files = sorted(site.rglob("*.html"))
    kinds = {
        "episode": "backend-flexibility-revolution",
        "show": "pytorch/index.html",
        "archive": "2025",
        "fragment": "nearby-fragment",
    }
    assert all(any(marker in str(path) for path in files) for marker in kinds.values())

    result = subprocess.run(
        [*vnu, "--format", "json", "--also-check-css", *map(str, files)], capture_output=True, text=True, timeout=300
    )

    messages = json.loads(result.stderr)["messages"]
    assert messages == [], "\n".join(f"{m.get('url')}: {m.get('type')}: {m.get('message')}" for m in messages)
