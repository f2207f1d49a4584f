"""Show notes: the publisher's Markdown (CommonMark), rendered once, when an upload is folded, to the
small and safe HTML that the page and the feed's `content:encoded` both carry.

cmark, CommonMark's reference implementation in C (through cmarkgfm), renders the Markdown: 1,100
characters of notes in about 20 µs, where markdown-it-py took 1 ms, which was half of the CPU of
a full render of 10,000 episodes with notes. Raw HTML is escaped, never passed: cmark can only
drop it (its safe mode), so notes that hold any are read again with each `<` that could open it
made text (`_text_for_raw_html`). What cmark makes is then sanitised by nh3 (the Ammonia
sanitiser) against an allow-list, so that no script, style, event handler, relative link,
`javascript:` or `data:` URL survives whatever the input. Headings sit under the page's own h2
"Show notes" (`outline_levels`).
"""

import re
from collections.abc import Sequence

import cmarkgfm
import nh3

ALLOWED_TAGS = frozenset({"p", "br", "a", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li", "h3", "h4"})
ALLOWED_ATTRIBUTES = {"a": {"href"}}
URL_SCHEMES = frozenset({"https", "http", "mailto"})

# What cmark writes, in its safe mode, where the Markdown holds raw HTML.
RAW_HTML_OMITTED = "<!-- raw HTML omitted -->"
# A `<` that may open raw HTML: one that no backslash escapes and that opens no autolink (a URI or
# an address, whose colon or @ no tag name may hold), as the CommonMark spec defines them.
_AUTOLINK = (
    r"[A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>"
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>"
)
_MAY_OPEN_RAW_HTML = re.compile(rf"(?<!\\)((?:\\\\)*)<(?!{_AUTOLINK})")
# Stands for such a `<` while cmark reads the notes: a noncharacter, which no text of the contract
# holds (`plain_text`). cmark writes it as itself in text, and percent-encoded in a link.
_STAND_IN = "\ufdd0"
_STAND_IN_IN_LINKS = "%EF%B7%90"
# nh3's sanitiser, set up once: each call of `nh3.clean` builds one anew from the lists.
_SANITISER = nh3.Cleaner(
    tags=set(ALLOWED_TAGS),
    attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
    url_schemes=set(URL_SCHEMES),
    url_relative="deny",
    link_rel=None,
)
_HEADING_OPENS = re.compile(r"<(h[1-6])>")
_HEADING_TAG = re.compile(r"<(/?)h[1-6]>")


def notes_html(markdown: str) -> str:
    """The notes as sanitised HTML."""
    [html] = each_notes_html([markdown])
    return html


def each_notes_html(markdowns: Sequence[str]) -> list[str]:
    """`notes_html` of each, one stage at a time for all of them: cmark, then nh3. Each is a large
    body of compiled code, as is pydantic's, which reads the files the notes come from: 2,000 of the
    bench's notes took 51 µs each to render alone, and about 50 µs more each when each followed the
    reading of its own episode's file (best of 7). So a render reads a run of files, then renders
    their notes together (`CatalogEntry.each_of`)."""
    htmls = [_commonmark(markdown) for markdown in markdowns]
    htmls = [
        _text_for_raw_html(markdown) if RAW_HTML_OMITTED in html else html
        for markdown, html in zip(markdowns, htmls, strict=True)
    ]
    outlined = [_outlined(html) for html in htmls]
    return [_SANITISER.clean(html).strip() for html in outlined]


def _text_for_raw_html(markdown: str) -> str:
    """The notes rendered with every `<` that could open raw HTML read as text, so that the tag is
    shown as written, and what follows it is read as Markdown."""
    html = _commonmark(_MAY_OPEN_RAW_HTML.sub(rf"\1{_STAND_IN}", markdown))
    return html.replace(_STAND_IN, "&lt;").replace(_STAND_IN_IN_LINKS, "%3C")


def _commonmark(markdown: str) -> str:
    """The Markdown as cmark renders it in its safe mode: raw HTML dropped, where a marker says so."""
    html: str = cmarkgfm.markdown_to_html(markdown)
    return html


def _outlined(html: str) -> str:
    """`html` with its headings at the levels `outline_levels` gives them. Every heading tag in it is
    one cmark wrote: raw HTML is never passed, and code is escaped."""
    levels = iter(outline_levels(_HEADING_OPENS.findall(html)))
    level = ""

    def retag(tag: re.Match[str]) -> str:
        nonlocal level
        closing = tag.group(1)
        if not closing:
            level = next(levels)
        return f"<{closing}{level}>"

    return _HEADING_TAG.sub(retag, html)


def outline_levels(tags: list[str]) -> list[str]:
    """h3 or h4 for each heading tag, so that the page's outline never skips a level: the notes'
    shallowest headings become h3 (`#` and `##` give h3 and h4), and so does every heading before the
    first of those (notes that open with `##` and use `#` later); the rest become h4."""
    top = min(tags, default="h1")
    seen_top = False
    levels = []
    for tag in tags:
        seen_top |= tag == top
        levels.append("h3" if tag == top or not seen_top else "h4")
    return levels
