"""Show notes: the publisher's Markdown (CommonMark), rendered once, when an upload is folded, to the
small and safe HTML that the page and the feed's `content:encoded` both carry.

Markdown's raw HTML is escaped, not passed (`html` off), and what the renderer makes is then
sanitised by nh3 (the Ammonia sanitiser) against an allow-list, so that no script, style, event
handler, `javascript:` or `data:` URL survives whatever the input. `#` and `##` become h3 and h4,
and deeper headings h4 too, so that the notes sit under the page's own h2 sections.
"""

from functools import cache

import nh3
from markdown_it import MarkdownIt

ALLOWED_TAGS = frozenset({"p", "br", "a", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li", "h3", "h4"})
ALLOWED_ATTRIBUTES = {"a": {"href"}}
URL_SCHEMES = frozenset({"https", "http", "mailto"})
HEADINGS = {"h1": "h3", "h2": "h4"}  # and every deeper heading to h4


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False})


def notes_html(markdown: str) -> str:
    """The notes as sanitised HTML."""
    parser = _markdown()
    tokens = parser.parse(markdown)
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = HEADINGS.get(token.tag, "h4")
    html = parser.renderer.render(tokens, parser.options, {})
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
    ).strip()
