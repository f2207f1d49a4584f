"""`templating.escaped`, what each expression of an autoescaped template goes through: markupsafe's
`escape`, as plain text, for every kind of value a template outputs."""

from functools import cache

import pytest
from jinja2 import StrictUndefined, UndefinedError
from markupsafe import Markup, escape

from podpages import site_paths, templating
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


def test_loading_the_templates_compiles_each_into_the_environment(monkeypatch):
    # Given a new environment, which has compiled no template
    templating.environment.cache_clear()
    monkeypatch.setattr(templating, "environment", cache(templating.environment.__wrapped__))
    names = [name for name in templating.sources().list_templates() if name.endswith(templating.TEMPLATE_SUFFIXES)]

    # When the templates are loaded, as a render does before its workers fork
    templating.load_templates()

    # Then every template is compiled and held, and one asked for is the one held
    held = {name for _loader, name in templating.environment().cache}
    assert held == set(names) and "episode.html" in held
    assert templating.environment().get_template("episode.html") is templating.environment().get_template(
        "episode.html"
    )
