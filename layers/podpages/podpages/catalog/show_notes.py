"""Show notes: the publisher's Markdown (CommonMark), rendered once, when an upload is folded, to the
small and safe HTML that the page and the feed's `content:encoded` both carry.

Markdown's raw HTML is escaped, not passed (`html` off), and what the renderer makes is then
sanitised by nh3 (the Ammonia sanitiser) against an allow-list, so that no script, style, event
handler, `javascript:` or `data:` URL survives whatever the input. Headings sit under the page's
own h2 "Show notes" (`outline_levels`).
"""

from functools import cache

import nh3
from markdown_it import MarkdownIt

ALLOWED_TAGS = frozenset({"p", "br", "a", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li", "h3", "h4"})
ALLOWED_ATTRIBUTES = {"a": {"href"}}
URL_SCHEMES = frozenset({"https", "http", "mailto"})


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False})


def notes_html(markdown: str) -> str:
    """The notes as sanitised HTML."""
    parser = _markdown()
    tokens = parser.parse(markdown)
    opening = [token for token in tokens if token.type == "heading_open"]
    closing = [token for token in tokens if token.type == "heading_close"]
    for tag, opens, closes in zip(outline_levels([token.tag for token in opening]), opening, closing, strict=True):
        opens.tag = closes.tag = tag
    html = parser.renderer.render(tokens, parser.options, {})
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
    ).strip()


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
