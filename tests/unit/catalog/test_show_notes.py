"""Show notes: CommonMark in, the allow-listed HTML out. Links survive; raw HTML, scripts, styles,
event handlers, `javascript:` and `data:` URLs never do, whatever the Markdown."""

import re
import time

import pytest
from lxml import html as lxml_html

from podpages.catalog.show_notes import ALLOWED_TAGS, notes_html

HOSTILE = [
    "<script>alert(1)</script>",
    "<style>body{display:none}</style>",
    '<img src=x onerror="alert(1)">',
    '<a href="javascript:alert(1)">click</a>',
    "[click](javascript:alert(1))",
    "[click](JAVASCRIPT:alert(1))",
    "[click](java\tscript:alert(1))",
    "[click](data:text/html;base64,PHNjcmlwdD4=)",
    "![pixel](https://tracker.example/p.gif)",
    '<div onclick="alert(1)">x</div>',
    "<iframe src=https://evil.example></iframe>",
    "[x](vbscript:msgbox)",
    '<a href="https://ok.example" onclick="alert(1)">ok</a>',
    "<svg/onload=alert(1)>",
    "[ref]: javascript:alert(1)\n\n[ref]",
    "<https://ok.example/?q=<script>>",
]


def elements(html: str) -> list:
    return lxml_html.fragment_fromstring(html, create_parent="div").iter() if html else []


@pytest.mark.parametrize("markdown", HOSTILE)
def test_hostile_markdown_leaves_only_allowed_tags_attributes_and_schemes(markdown):
    rendered = notes_html(f"Before\n\n{markdown}\n\nAfter")

    for element in elements(rendered):
        if element.tag == "div":  # the parent lxml wraps the fragment in
            continue
        assert element.tag in ALLOWED_TAGS, rendered
        assert set(element.attrib) <= ({"href"} if element.tag == "a" else set()), rendered
        if "href" in element.attrib:
            assert re.match(r"(https?|mailto):", element.attrib["href"]), rendered
    # What is left of the attack is text, shown as written
    assert "After" in rendered


def test_links_of_every_kind_are_kept():
    markdown = (
        "An [inline](https://a.example/x) link, a [reference][r], an autolink <https://c.example>, "
        "a [plain one](http://d.example) and [mail](mailto:host@example.com).\n\n[r]: https://b.example/ref"
    )

    hrefs = [element.get("href") for element in elements(notes_html(markdown)) if element.tag == "a"]

    assert hrefs == [
        "https://a.example/x",
        "https://b.example/ref",
        "https://c.example",
        "http://d.example",
        "mailto:host@example.com",
    ]


def test_headings_sit_under_the_page_s_sections():
    rendered = notes_html("# One\n\n## Two\n\n### Three\n\n###### Six")

    assert [element.tag for element in elements(rendered)][1:] == ["h3", "h4", "h4", "h4"]


def test_nested_emphasis_code_quotes_and_lists_render():
    rendered = notes_html("***both*** and `a < b`\n\n> quoted\n\n1. one\n2. two\n\n```\ncode <b>\n```")

    assert rendered == (
        "<p><em><strong>both</strong></em> and <code>a &lt; b</code></p>\n<blockquote>\n<p>quoted</p>\n"
        "</blockquote>\n<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n<pre><code>code &lt;b&gt;\n</code></pre>"
    )


@pytest.mark.parametrize(
    "markdown",
    [
        "*" * 20_000,
        "*a " * 6_666,
        "[" * 20_000,
        "`" * 20_000,
        "> " * 10_000,
        "- " * 10_000,
        "<" * 20_000,
        "**_" * 6_666,
    ],
    ids=["stars", "emphasis", "brackets", "backticks", "quotes", "lists", "angles", "mixed"],
)
def test_twenty_thousand_characters_of_one_construct_render_safely_and_quickly(markdown):
    started = time.perf_counter()
    rendered = notes_html(markdown)
    seconds = time.perf_counter() - started

    assert all(element.tag in ALLOWED_TAGS | {"div"} for element in elements(rendered))
    assert seconds < 5  # a guard against a runaway parse, far above the few ms it takes


def test_notes_that_open_below_their_top_level_still_give_an_outline_without_gaps():
    rendered = notes_html("## First\n\ntext\n\n## Second\n\n# Main\n\n## Under main")

    assert [element.tag for element in elements(rendered) if element.tag.startswith("h")] == ["h3", "h3", "h3", "h4"]


def test_notes_of_one_heading_level_give_h3s():
    assert [element.tag for element in elements(notes_html("## One\n\n## Two"))][1:] == ["h3", "h3"]
