"""Show notes: CommonMark in, the allow-listed HTML out. Links survive; raw HTML, scripts, styles,
event handlers, `javascript:` and `data:` URLs never do, whatever the Markdown."""

import re
import time

import pytest
from lxml import html as lxml_html

from podpages.catalog.model import CatalogEntry
from podpages.catalog.show_notes import ALLOWED_TAGS, each_notes_html, notes_html
from support.catalogs import episode_document, put_episode

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


@pytest.mark.parametrize(
    ("markdown", "html"),
    [
        ("Use the <video> tag, *really*.", "<p>Use the &lt;video&gt; tag, <em>really</em>.</p>"),
        ("<div>\n*hi*\n</div>", "<p>&lt;div&gt;\n<em>hi</em>\n&lt;/div&gt;</p>"),
        ("<!-- a comment -->", "<p>&lt;!-- a comment --&gt;</p>"),
        (
            "<b>bold</b>, <https://a.example>, <host@example.com>, \\<i>, \\\\<u>, `<code>` and &lt;",
            '<p>&lt;b&gt;bold&lt;/b&gt;, <a href="https://a.example">https://a.example</a>, '
            '<a href="mailto:host@example.com">host@example.com</a>, &lt;i&gt;, \\&lt;u&gt;, '
            "<code>&lt;code&gt;</code> and &lt;</p>",
        ),
        (
            "<b>x</b> and [q](https://x.example/a<b)",
            '<p>&lt;b&gt;x&lt;/b&gt; and <a href="https://x.example/a%3Cb">q</a></p>',
        ),
        ("```\n<b>\n```\n\n<i>", "<pre><code>&lt;b&gt;\n</code></pre>\n<p>&lt;i&gt;</p>"),
    ],
    ids=["inline", "block", "comment", "beside-autolinks-escapes-and-code", "in-a-link", "in-code"],
)
def test_raw_html_is_shown_as_written_and_what_follows_it_is_still_markdown(markdown, html):
    assert notes_html(markdown) == html


def test_a_link_keeps_its_text_but_no_relative_url():
    assert notes_html("[about](/about), [top](#top) and [home](https://a.example/)") == (
        '<p><a>about</a>, <a>top</a> and <a href="https://a.example/">home</a></p>'
    )


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


def test_headings_beside_raw_html_keep_their_outline():
    rendered = notes_html("## <b>Two</b>\n\n# One\n\n## Three")

    assert rendered == "<h3>&lt;b&gt;Two&lt;/b&gt;</h3>\n<h3>One</h3>\n<h4>Three</h4>"


def test_notes_of_one_heading_level_give_h3s():
    assert [element.tag for element in elements(notes_html("## One\n\n## Two"))][1:] == ["h3", "h3"]


def test_notes_rendered_together_are_each_what_it_renders_to_alone():
    # Given notes of each kind: plain, with headings to move under the page's, with raw HTML to show
    # as text, and hostile
    markdowns = [
        "Plain *words*.",
        "# Top\n\n## Under\n\ntext",
        "A <b>tag</b> and [a link](https://ok.example)",
        *HOSTILE,
        "## Again\n\n- item",
    ]

    # When they are rendered together
    together = each_notes_html(markdowns)

    # Then each is rendered as it is alone, in its own place
    assert together == [notes_html(markdown) for markdown in markdowns]
    assert together[:3] == [
        "<p>Plain <em>words</em>.</p>",
        "<h3>Top</h3>\n<h4>Under</h4>\n<p>text</p>",
        '<p>A &lt;b&gt;tag&lt;/b&gt; and <a href="https://ok.example">a link</a></p>',
    ]
    assert together[-1] == "<h3>Again</h3>\n<ul>\n<li>item</li>\n</ul>"


def test_entries_made_together_each_hold_their_own_episodes_notes_and_none_where_it_has_none():
    # Given uploads with notes and without, mixed
    puts = [
        put_episode("show", f"ep-{number}", episode_document(f"Episode {number}", **notes))
        for number, notes in enumerate([{"notes": "First *one*."}, {}, {}, {"notes": "# Fourth"}, {}])
    ]

    # When their entries are made together
    entries = CatalogEntry.each_of(puts, 1500)

    # Then each is the entry its upload makes alone, its notes its own
    alone = [CatalogEntry.of("show", put.source.episode_slug, put.episode, None, 1500) for put in puts]
    assert entries == alone
    assert [entry.notes() for entry in entries] == ["<p>First <em>one</em>.</p>", None, None, "<h3>Fourth</h3>", None]
