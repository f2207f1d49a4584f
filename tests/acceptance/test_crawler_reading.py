"""A page as a crawler reads it: the text of its main content, block by block (HTML to text).

Every episode page of the catalogue, fetched over HTTP, reads in the seed page's order: heading,
summary, duration, overview, excerpt, nearby. The seed's own episode, rendered from examples/,
reads as tests/golden/seed/episode-page.txt (a copy of the page that started the project) does,
section by section."""

from dataclasses import dataclass

from lxml import html

from podpages.durations import iso_duration
from podpages.render import pages
from support.catalogs import SETTINGS, example_folder
from support.paths import GOLDEN

SEED = ("pytorch", "backend-flexibility-revolution")
OVERVIEW, EXCERPT = "Episode overview", "Transcript excerpt"
ELLIPSIS = "…"


@dataclass(frozen=True)
class Line:
    text: str
    machine: str | None = None  # what a <time datetime> in the line says to machines


def crawler_reading(page: bytes) -> list[Line]:
    """The main content's blocks in document order, as text; list items start with "- "."""
    main = html.fromstring(page).find(".//main")
    lines = []
    for block in main.iter("h1", "h2", "p", "li"):
        text = " ".join(block.text_content().split())
        times = block.xpath(".//time/@datetime")
        lines.append(Line(("- " if block.tag == "li" else "") + text, times[0] if times else None))
    return lines


def sections(texts: list[str], nearby_heading: str) -> dict[str, list[str]]:
    """Lines split at the section headings: "top" (heading, summary, duration), then each section."""
    found: dict[str, list[str]] = {"top": []}
    current = "top"
    for text in texts:
        if text in (OVERVIEW, EXCERPT, nearby_heading):
            current = text
            found[current] = []
        else:
            found[current].append(text)
    return found


def seed_reading(lines: list[Line]) -> list[str]:
    """Our lines as the seed writes them: a duration in its machine form (`Duration: PT4M5S`)."""
    return [
        f"{line.text.split(':')[0]}: {line.machine}" if "duration" in line.text.lower() and line.machine else line.text
        for line in lines
    ]


def test_the_seed_episode_reads_as_the_seed_page_section_by_section():
    catalog = example_folder().catalogs[SEED[0]]
    ours = sections(
        seed_reading(crawler_reading(pages.episode_page(catalog, SEED[1], SETTINGS).body)),
        "Nearby episodes from PyTorch",
    )
    seed = sections((GOLDEN / "seed" / "episode-page.txt").read_text().splitlines(), "Nearby episodes from PyTorch")

    assert list(ours) == list(seed) == ["top", OVERVIEW, EXCERPT, "Nearby episodes from PyTorch"]
    assert ours["top"] == seed["top"]  # heading, summary, duration
    assert ours[OVERVIEW] == seed[OVERVIEW]
    assert ours["Nearby episodes from PyTorch"] == seed["Nearby episodes from PyTorch"]
    # The excerpt: whole paragraphs, then the next one cut at a word and closed with "…".
    # The seed cut that paragraph sooner than EXCERPT_CHARS (1500) does, then cut two more to a few
    # words; the excerpt stops at the first cut. Whole paragraphs match; the cut ones share a start.
    excerpt, seeds = ours[EXCERPT], seed[EXCERPT]
    whole = len(excerpt) - 1
    assert excerpt[:whole] == seeds[:whole]
    assert excerpt[-1].endswith(ELLIPSIS) and not any(line.endswith(ELLIPSIS) for line in excerpt[:-1])
    assert excerpt[-1].removesuffix(ELLIPSIS).startswith(seeds[whole].removesuffix(ELLIPSIS))
    assert all(line.endswith(ELLIPSIS) for line in seeds[whole:])


def test_every_episode_page_reads_in_the_seed_page_s_order(site):
    for catalog in site.catalogs:
        nearby_heading = f"Nearby episodes from {catalog.show_document.title}"
        for entry in catalog.episodes:
            lines = crawler_reading(site.page(f"/{catalog.show}/{entry.slug}/"))
            texts = [line.text for line in lines]
            found = sections(texts, nearby_heading)

            expected = (
                ["top", OVERVIEW]
                + ([EXCERPT] if catalog.excerpt(entry) else [])
                + ([nearby_heading] if len(catalog.episodes) > 1 else [])
            )
            assert list(found) == expected, (catalog.show, entry.slug)
            top = found["top"]
            assert top[0] == f"{catalog.show_document.title}: {entry.episode.title}"
            assert top[-1].startswith("Duration: ")
            assert [line.machine for line in lines if line.text == top[-1]][0] == iso_duration(entry.episode.duration)
            assert " ".join(top[1:-1]) == " ".join(entry.episode.summary.split())
