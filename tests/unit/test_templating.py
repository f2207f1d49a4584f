"""`templating.escaped`, what each expression of an autoescaped template goes through: markupsafe's
`escape`, as plain text, for every kind of value a template outputs."""

import pytest
from jinja2 import StrictUndefined, UndefinedError
from markupsafe import Markup, escape

from podpages import site_paths
from podpages.templating import escaped, render


class Html:
    def __html__(self) -> str:
        return "<b>safe</b>"


@pytest.mark.parametrize(
    "value",
    [
        "",
        "plain words",
        "<script>alert('x')</script> & \"quoted\"",
        "no markup, ünïcödé — and an emoji 🎙",
        Markup("<em>kept</em> &amp;"),
        Html(),
        42,
        2.5,
        None,
        False,
    ],
)
def test_escaped_writes_what_markupsafes_escape_writes(value):
    assert escaped(value) == str(escape(value))
    assert type(escaped(value)) is str


def test_an_undefined_value_still_fails_the_render():
    with pytest.raises(UndefinedError):
        escaped(StrictUndefined(name="title"))


def test_a_template_escapes_each_expression():
    page = render("nearby-link.html", site_url="https://x.example", show="s", slug="e", title="<b>&", paths=site_paths)
    assert "&lt;b&gt;&amp;" in page
    assert "<b>" not in page
