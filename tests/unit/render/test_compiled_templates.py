"""The templates as the layer carries them, compiled to Python modules: a site rendered from those is
the site rendered from the templates themselves, byte for byte, and no template is compiled on the way."""

import pytest
from jinja2 import Environment, ModuleLoader, PackageLoader
from jinja2.compiler import CodeGenerator

from podpages import templating
from podpages.nearby_section import nearby_link
from podpages.render.whole_site import render_site
from podpages.settings import Settings
from support.catalogs import daily_catalog, example_folder

# Few enough for a feed archive and a year's archive page: every template has a use.
SETTINGS = Settings(site_url="https://podcasts.example.com", feed_max_items=5)


def rendered() -> dict[str, bytes]:
    folder = example_folder(SETTINGS)
    catalogs = folder.catalogs | {"daily": daily_catalog(60, settings=SETTINGS)}
    return {
        item.key: item.body
        for _label, plan in render_site(catalogs, folder.transcripts, SETTINGS)
        for item in plan.puts
    }


@pytest.fixture
def fresh_environment():
    """`templating.environment()` made anew, and again after the test, so that no template one of
    them loaded is left for other tests; and no nearby link kept rendered from before."""
    templating.environment.cache_clear()
    nearby_link.cache_clear()
    yield
    templating.environment.cache_clear()
    nearby_link.cache_clear()


def test_a_package_without_compiled_templates_reads_the_templates_themselves(tmp_path):
    assert isinstance(templating.loader(tmp_path), PackageLoader)


def test_a_site_rendered_from_the_compiled_templates_is_the_same_byte_for_byte(
    tmp_path, monkeypatch, fresh_environment
):
    # Given the site rendered from the templates themselves, and the templates compiled as the layer's build does
    expected = rendered()
    templating.compile_templates(tmp_path / templating.COMPILED)
    compiled = sorted(path.name for path in (tmp_path / templating.COMPILED).glob("tmpl_*.py"))
    names = [name for name in templating.environment().list_templates() if name.endswith(templating.TEMPLATE_SUFFIXES)]
    assert compiled == sorted(ModuleLoader.get_module_filename(name) for name in names)
    assert len(names) >= 15

    # When a package that carries them renders the site, each template it loads counted, none compiled
    templating.environment.cache_clear()
    nearby_link.cache_clear()
    loader = templating.loader(tmp_path)
    assert isinstance(loader, ModuleLoader)
    monkeypatch.setattr(templating, "loader", lambda: loader)
    loaded: list[str] = []
    load = ModuleLoader.load

    def counted(self, environment, name, *rest):
        loaded.append(name)
        return load(self, environment, name, *rest)

    monkeypatch.setattr(ModuleLoader, "load", counted)
    monkeypatch.setattr(Environment, "compile", lambda *_args, **_kwargs: pytest.fail("a template was compiled"))
    actual = rendered()

    # Then every template came from its module, and every file is as before
    assert sorted(set(loaded)) == sorted(names)
    assert actual == expected


def test_a_build_compiles_from_the_sources_even_where_compiled_templates_are_loaded(
    tmp_path, monkeypatch, fresh_environment
):
    # Given templates compiled once, and an environment that loads those (a layer built before)
    templating.compile_templates(tmp_path / "first")
    templating.environment.cache_clear()
    monkeypatch.setattr(templating, "loader", lambda: ModuleLoader(tmp_path / "first"))
    # When they are compiled again
    templating.compile_templates(tmp_path / "again")
    # Then from their sources, to the very same modules
    first, again = ({path.name: path.read_bytes() for path in (tmp_path / run).iterdir()} for run in ("first", "again"))
    assert again == first
    assert len(again) >= 15


def test_a_site_written_through_escaped_is_the_site_jinjas_own_escape_writes(monkeypatch, fresh_environment):
    # Given the site as the templates write it, each expression through `templating.escaped`
    ours = rendered()
    compiled = templating.environment().compile('{{ "<&>" }}{{ title }}', raw=True)
    assert "environment.escaped(" in compiled
    assert "escape(" not in compiled.replace("environment.escaped(", "")
    # When Jinja compiles them its own way, each through markupsafe's `escape`
    templating.environment.cache_clear()
    nearby_link.cache_clear()
    monkeypatch.setattr(templating._Environment, "code_generator_class", CodeGenerator)
    assert "environment.escaped(" not in templating.environment().compile("{{ title }}", raw=True)
    # Then every file is the same, byte for byte
    assert rendered() == ours
