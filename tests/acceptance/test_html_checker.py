"""Every page type, checked by the Nu HTML Checker (vnu.jar from npm): 0 errors and 0 warnings.

The catalogue's pages are fetched over HTTP from the local stack, with the API's HTML fragment
wrapped in a page; a show whose every field is hostile text is rendered beside them."""

import json
import subprocess

import pytest

from podpages.catalog.model import Catalog
from podpages.render.whole_site import render_site
from support.catalogs import SETTINGS, episode_document, put_episode, put_show, show_document

# Decomposed text (e and a combining acute) must reach the page in Normalization Form C, or the
# checker warns.
TRICKY = "</script><!-- ]]> & \"quotes\" 'apostrophes' <b>tags</b> — ünïcödé 中文 עברית cafe\u0301"
WRAPPER = (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Nearby</title>\n</head>\n'
    "<body>\n<h1>Nearby episodes</h1>\n{fragment}</body>\n</html>\n"
)


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
def pages(site, tmp_path_factory) -> dict[str, list]:
    """The files to check, by page type."""
    folder = tmp_path_factory.mktemp("pages")
    found: dict[str, list] = {"episode": [], "show": [], "archive": [], "transcript": [], "fragment": [], "hostile": []}
    for kind, paths in (
        ("episode", site.episode_paths()),
        ("show", site.show_paths()),
        ("archive", site.archive_paths()),
        ("transcript", site.transcript_paths()),
    ):
        for path in paths:
            file = folder / "served" / path.strip("/") / "index.html"
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(site.page(path))
            found[kind].append(file)
    for number, path in enumerate(site.episode_paths()[:20]):  # the fragment is one template: 20 suffice
        show, episode = path.strip("/").split("/")
        status, _headers, fragment = site.get(f"/api/shows/{show}/episodes/{episode}/nearby?format=html")
        assert status == 200, path
        file = folder / "fragments" / f"{number}.html"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(WRAPPER.format(fragment=fragment.decode()))
        found["fragment"].append(file)
    for _label, plan in render_site({"tricky": tricky_catalog()}, {}, SETTINGS):
        for item in plan.puts:
            if item.key.endswith(".html"):
                file = folder / "tricky" / item.key
                file.parent.mkdir(parents=True, exist_ok=True)
                file.write_bytes(item.body)
                found["hostile"].append(file)
    return found


def test_every_page_type_passes_the_nu_html_checker(vnu, pages):
    assert all(pages[kind] for kind in ("episode", "show", "archive", "transcript", "fragment")), {
        k: len(v) for k, v in pages.items()
    }
    files = [str(file) for files in pages.values() for file in files]

    result = subprocess.run(
        [*vnu, "--format", "json", "--also-check-css", *files], capture_output=True, text=True, timeout=600
    )

    # Errors, and infos of the warning kind, count; plain infos (a guess at the text's language) do not.
    messages = [
        m for m in json.loads(result.stderr)["messages"] if m["type"] != "info" or m.get("subType") == "warning"
    ]
    assert messages == [], "\n".join(f"{m.get('url')}: {m.get('type')}: {m.get('message')}" for m in messages)
