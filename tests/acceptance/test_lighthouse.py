"""Lighthouse 12.2.3 in Debian's Chromium, over HTTP from the local stack: an episode page, the episode
page that uses the most of contract v2 (chapters, people, notes), a transcript page, a show page and an archive page
each score 100 for SEO, Accessibility and Best Practices, and the episode pages ask the network for
nothing beyond their audio and image."""

import json
import subprocess
from urllib.parse import urlsplit

import pytest

CATEGORIES = ("seo", "accessibility", "best-practices")
KINDS = ("episode", "v2 episode", "transcript", "show", "archive")


@pytest.fixture(scope="module")
def reports(site, lighthouse, tmp_path_factory) -> dict[str, tuple[str, dict]]:
    """One Lighthouse run per page type: the page's path and the report."""
    first = {
        "episode": site.episode_paths()[0],
        "v2 episode": richest_episode(site),
        "transcript": site.transcript_paths()[0],
        "show": site.show_paths()[0],
        "archive": site.archive_paths()[0],
    }
    found = {}
    for kind, path in first.items():
        output = tmp_path_factory.mktemp("lighthouse") / f"{kind}.json"
        result = subprocess.run(
            [
                *lighthouse,
                site.url + path,
                "--only-categories=" + ",".join(CATEGORIES),
                "--only-audits=network-requests",
                "--output=json",
                f"--output-path={output}",
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        found[kind] = (path, json.loads(output.read_text()))
    return found


def richest_episode(site) -> str:
    """The path of the episode page that carries the most of contract v2: chapters, people, notes."""

    def richness(path: str) -> int:
        entry = entry_at(site, path)[1]
        episode = entry.episode_in_full()
        return len(entry.chapters()) + len(episode.persons or ()) + (entry.notes_html is not None)

    return max(site.episode_paths(), key=richness)


def entry_at(site, path: str):
    catalog = next(catalog for catalog in site.catalogs if path.startswith(f"/{catalog.show}/"))
    return catalog, catalog.entry(path.strip("/").split("/")[1])


def failures(report: dict) -> list[str]:
    return [
        f"{name}: {report['audits'][ref['id']]['title']} {report['audits'][ref['id']].get('explanation', '')}"
        for name, category in report["categories"].items()
        for ref in category["auditRefs"]
        if ref["weight"] and (report["audits"][ref["id"]]["score"] or 0) < 1
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_each_page_type_scores_100_for_seo_accessibility_and_best_practices(reports, kind):
    _path, report = reports[kind]

    scores = {name: report["categories"][name]["score"] for name in CATEGORIES}

    assert not report.get("runtimeError"), report.get("runtimeError")
    assert scores == dict.fromkeys(CATEGORIES, 1), failures(report)


@pytest.mark.parametrize("kind", ["episode", "v2 episode"])
def test_an_episode_page_requests_nothing_beyond_its_audio_and_image(site, reports, kind):
    path, report = reports[kind]
    catalog, entry = entry_at(site, path)
    allowed = {site.url + path, str(entry.episode.audio.url)}
    allowed |= {str(image) for image in (entry.episode.image, catalog.show_document.image) if image}

    items = report["audits"]["network-requests"]["details"]["items"]

    # data: URIs are the browser's own audio-control icons; they never reach the network.
    requested = {item["url"] for item in items if urlsplit(item["url"]).scheme in ("http", "https")}
    assert site.url + path in requested
    assert requested <= allowed, requested - allowed
