"""Episode, show and archive pages with contract v2's fields: show notes, chapters, people, other
formats, the episode type, funding and the podroll, each where DESIGN's tables put it, escaped
(the notes aside, which were sanitised when folded), and within the page budget."""

import pytest
from lxml import html

from podpages.catalog.model import Catalog
from podpages.render import pages
from support.catalogs import SETTINGS, episode_document, put_episode, put_show, show_document

SHOW = "v2"
PAGE = f"{SETTINGS.site_url}/{SHOW}/"
HOSTILE = '</script><script>alert(1)</script><img src=x onerror="alert(2)"> & <b>bold</b>'
MAX_RICH_PAGE_BYTES = 30 * 1024

SHOW_PERSONS = [
    {"name": "Ada Host", "role": "host", "href": "https://example.org/ada"},
    {"name": "Tom Cohost", "role": "co-host"},
]
FUNDING = [
    {"url": "https://example.org/support", "text": "Support us"},
    {"url": "https://example.org/donate", "text": "Donate once"},
]
PODROLL = [
    {"feed_guid": "2d00c1b0-c3d7-586d-9853-6f106a360d26", "feed_url": "https://example.org/a.xml", "title": "Show A"},
    {"feed_guid": "c1b9f7a2-0c5e-5e2b-8b61-3d2f5a4e9c10", "title": "Show B"},
    {"feed_guid": "7e0c2b8a-6a43-5f0e-9d1c-2b7a3c4d5e6f"},
]
CHAPTERS = [
    {"start": 0, "title": "Opening"},
    {"start": 725, "title": "Middle", "url": "https://example.org/middle", "image": "https://example.org/m.png"},
    {"start": 3723.5, "title": "Late"},
]
NOTES = "# Links\n\nSee [the release](https://example.org/release).\n\n## Details\n\nMore."


def catalog_of(*episodes: tuple[str, dict], **show_fields) -> Catalog:
    catalog = Catalog(show=SHOW).apply(put_show(SHOW, show_document("V2 show", **show_fields)), 1500)
    for slug, document in episodes:
        catalog = catalog.apply(put_episode(SHOW, slug, document), 1500)
    return catalog


def episode_tree(catalog: Catalog, slug: str = "e1"):
    return html.fromstring(pages.episode_page(catalog, slug, SETTINGS).body)


def section(tree, name: str):
    found = tree.xpath(f"//section[@aria-labelledby='{name}']")
    assert len(found) == 1, name
    return found[0]


@pytest.fixture(scope="module")
def rich():
    document = episode_document(
        "Rich",
        duration="PT1H30M",
        notes=NOTES,
        chapters=CHAPTERS,
        persons=[
            {"name": "Gail Guest", "role": "guest", "href": "https://example.org/gail", "img": "https://x.org/g.jpg"}
        ],
        alternate_enclosures=[
            {"url": "https://media.example.com/a.opus", "type": "audio/opus", "length": 20_246_000, "title": "Opus"},
            {"url": "https://media.example.com/a.mp4", "type": "video/mp4", "length": 81_000_000},
        ],
        episode_type="bonus",
    )
    return catalog_of(("e1", document), persons=SHOW_PERSONS, funding=FUNDING, podroll=PODROLL)


@pytest.fixture(scope="module")
def rich_tree(rich):
    return episode_tree(rich)


def test_the_show_notes_follow_the_overview_under_an_h2(rich_tree):
    headings = rich_tree.xpath("//main//h2/text()")

    assert headings[:5] == ["Episode overview", "Show notes", "Chapters", "Hosts and guests", "Other formats"]
    notes = section(rich_tree, "notes")
    assert notes.xpath(".//a/@href") == ["https://example.org/release"]
    assert notes.xpath("h3/text()") == ["Links"] and notes.xpath("h4/text()") == ["Details"]


def test_notes_that_open_with_a_second_level_heading_keep_the_outline():
    document = episode_document(notes="## First\n\ntext\n\n## Second\n\n# Main\n\n## Under main")
    notes = section(episode_tree(catalog_of(("e1", document))), "notes")

    assert [(h.tag, h.text) for h in notes.xpath("h3|h4")] == [
        ("h3", "First"),
        ("h3", "Second"),
        ("h3", "Main"),
        ("h4", "Under main"),
    ]


def test_chapters_are_an_ordered_list_with_anchors_and_machine_readable_starts(rich_tree):
    items = section(rich_tree, "chapters").xpath("ol/li")

    assert [item.get("id") for item in items] == ["chapter-1", "chapter-2", "chapter-3"]
    assert [item.xpath("time/@datetime")[0] for item in items] == ["PT0S", "PT725S", "PT3723.5S"]
    assert [item.findtext("time") for item in items] == ["0:00", "12:05", "1:02:03"]
    assert [" ".join(item.text_content().split()[1:]) for item in items] == ["Opening", "Middle", "Late"]
    assert items[1].xpath("a/@href") == ["https://example.org/middle"] and not items[0].xpath("a")


def test_the_page_asks_for_no_chapter_or_person_image(rich_tree):
    assert not rich_tree.xpath("//img")
    assert "m.png" not in html.tostring(rich_tree).decode() and "g.jpg" not in html.tostring(rich_tree).decode()


def test_an_episodes_people_replace_the_shows(rich_tree):
    items = section(rich_tree, "people").xpath("ul/li")

    assert [item.text_content() for item in items] == ["Gail Guest, guest"]
    assert items[0].xpath("a/@href") == ["https://example.org/gail"]


def test_an_episode_without_people_credits_the_shows():
    catalog = catalog_of(("e1", episode_document()), persons=SHOW_PERSONS)

    items = section(episode_tree(catalog), "people").xpath("ul/li")

    assert [item.text_content() for item in items] == ["Ada Host, host", "Tom Cohost, co-host"]
    assert items[0].xpath("a/@href") == ["https://example.org/ada"] and not items[1].xpath("a")


def test_other_formats_link_each_alternate_enclosure_with_its_type_and_size(rich_tree):
    items = section(rich_tree, "formats").xpath("ul/li")

    assert [item.text_content() for item in items] == ["Opus, audio/opus, 20.2 MB", "video/mp4, 81 MB"]
    assert [item.xpath("a/@href")[0] for item in items] == [
        "https://media.example.com/a.opus",
        "https://media.example.com/a.mp4",
    ]


@pytest.mark.parametrize(("episode_type", "label"), [("trailer", "Trailer"), ("bonus", "Bonus episode")])
def test_a_trailer_or_a_bonus_episode_says_so(episode_type, label):
    tree = episode_tree(catalog_of(("e1", episode_document(episode_type=episode_type))))

    assert f"Type: {label}" in section(tree, "overview").xpath("ul/li/text()")


def test_a_full_episode_names_no_type():
    tree = episode_tree(catalog_of(("e1", episode_document(episode_type="full"))))

    assert not [text for text in section(tree, "overview").xpath("ul/li/text()") if text.startswith("Type:")]


def test_funding_is_on_the_episode_the_show_and_the_archive_page(rich):
    for page in (
        pages.episode_page(rich, "e1", SETTINGS),
        pages.show_page(rich, SETTINGS),
        pages.archive_page(rich, 2026, SETTINGS),
    ):
        support = section(html.fromstring(page.body), "support")

        assert support.xpath("h2/text()") == ["Support the show"], page.key
        assert support.xpath("ul/li/a/@href") == ["https://example.org/support", "https://example.org/donate"]
        assert support.xpath("ul/li/a/text()") == ["Support us", "Donate once"]


def test_the_show_page_recommends_the_podroll_and_credits_the_shows_people(rich):
    tree = html.fromstring(pages.show_page(rich, SETTINGS).body)

    items = section(tree, "podroll").xpath("ul/li")
    assert [item.text_content() for item in items] == ["Show A", "Show B", PODROLL[2]["feed_guid"]]
    assert [item.xpath("a/@href") for item in items] == [["https://example.org/a.xml"], [], []]
    assert section(tree, "people").xpath("ul/li//text()")[0] == "Ada Host"


def test_without_v2_fields_no_v2_section_appears():
    catalog = catalog_of(("e1", episode_document()))

    for page in (pages.episode_page(catalog, "e1", SETTINGS), pages.show_page(catalog, SETTINGS)):
        labels = html.fromstring(page.body).xpath("//section/@aria-labelledby")

        assert not {"notes", "chapters", "people", "formats", "support", "podroll"} & set(labels), page.key


def test_every_id_on_a_rich_page_is_unique_and_every_section_is_labelled_by_one(rich_tree):
    ids = rich_tree.xpath("//@id")

    assert len(ids) == len(set(ids))
    assert set(rich_tree.xpath("//section/@aria-labelledby")) <= set(ids)


def test_hostile_notes_stay_inert():
    notes = (
        "<script>alert(1)</script>\n\n[click](javascript:alert(2))\n\n<img src=x onerror=alert(3)>\n\n"
        '<a href="javascript:alert(4)" onclick="alert(5)">raw</a>'
    )
    tree = episode_tree(catalog_of(("e1", episode_document(notes=notes))))

    notes_section = section(tree, "notes")
    assert not tree.xpath("//script[not(@type='application/ld+json')]")
    assert not tree.xpath("//img") and not tree.xpath("//@*[starts-with(name(), 'on')]")
    assert not [href for href in tree.xpath("//@href") if href.strip().lower().startswith("javascript:")]
    assert "<script>alert(1)</script>" in notes_section.text_content()  # shown as text, not run


def test_hostile_chapter_titles_and_person_names_are_escaped():
    document = episode_document(
        chapters=[{"start": 0, "title": HOSTILE}],
        persons=[{"name": HOSTILE, "role": "guest"}],
    )
    page = pages.episode_page(
        catalog_of(("e1", document), funding=[{"url": "https://e.org/", "text": HOSTILE}]), "e1", SETTINGS
    )
    tree = html.fromstring(page.body)

    assert section(tree, "chapters").xpath("ol/li")[0].text_content() == f"0:00 {HOSTILE}"
    assert section(tree, "people").xpath("ul/li")[0].text_content() == f"{HOSTILE}, guest"
    assert section(tree, "support").xpath("ul/li/a/text()") == [HOSTILE]
    assert not tree.xpath("//img") and not tree.xpath("//b")
    assert len(tree.xpath("//script")) == 1


def test_an_episode_at_the_rich_budget_stays_under_30_kb():
    """50 chapters of 40 characters, every other one linked; 10 people with pages; 5,000 characters of
    notes full of links; beside what a v1 page has at its fullest in examples/: a summary of 400
    characters, a whole transcript excerpt and a full nearby list."""
    chapters = [
        {"start": 60 * n, "title": f"Chapter {n:02d} " + "t" * 29}
        | ({"url": f"https://example.org/chapters/{n}"} if n % 2 else {})
        for n in range(50)
    ]
    persons = [
        {"name": f"Person {n} " + "n" * 20, "role": "guest", "href": f"https://example.org/people/{n}"}
        for n in range(10)
    ]
    notes = "\n\n".join(f"Paragraph {n} with [a link](https://example.org/notes/{n}). " + "w " * 70 for n in range(30))
    document = episode_document(
        "Long",
        duration="PT4H",
        summary="S " * 200,
        transcript="\n\n".join(["word " * 200] * 10),
        notes=notes[:5000],
        chapters=chapters,
        persons=persons,
    )
    neighbours = [
        (f"n{n}", episode_document(f"Neighbour {n} " + "x" * 60, f"2026-01-{n + 2:02d}T10:00:00Z")) for n in range(10)
    ]
    catalog = catalog_of(("e1", document), *neighbours, funding=FUNDING, overview="O " * 100)

    page = pages.episode_page(catalog, "e1", SETTINGS)

    tree = html.fromstring(page.body)
    assert len(section(tree, "chapters").xpath("ol/li")) == 50 and len(section(tree, "people").xpath("ul/li")) == 10
    assert len(section(tree, "notes").text_content()) > 4000
    assert len(section(tree, "nearby").xpath("ul/li")) == SETTINGS.nearby_count and section(tree, "excerpt").xpath("p")
    assert len(page.body) <= MAX_RICH_PAGE_BYTES, len(page.body)
