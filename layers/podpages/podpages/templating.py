"""The Jinja2 environment every page and sitemap is rendered with. Autoescaping is on for HTML, XML
and template strings; plain text such as robots.txt is written as it is, since `&amp;` means nothing there.

The layer's build compiles the templates to Python modules (`compile_templates`), and a function
imports those, where it would parse and compile each template at its first page: 33 to 53 ms for
all of them in a cold process as on Lambda, against 1 to 3 ms to import them. A package without
them (an install by pip, the repository) reads the templates themselves. Both render the very same
bytes.
"""

from collections.abc import MutableMapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, Environment, ModuleLoader, PackageLoader, StrictUndefined, select_autoescape
from jinja2.compiler import CodeGenerator, Frame
from jinja2.nodes import Expr

try:  # escape's own step, to text: where markupsafe finds it (test_templating holds the two to one output)
    from markupsafe._speedups import _escape_inner
except ImportError:  # a markupsafe built without its C speedups
    from markupsafe._native import _escape_inner

from podpages.durations import clock, human_duration, iso_duration, offset_duration
from podpages.moments import calendar_date, rfc3339

# A file's size in the decimal units podcast apps print, the largest that leaves a number below 1000.
SIZE_UNITS = ("B", "kB", "MB", "GB", "TB")

# The repository keeps templates/ at its top; the package links it in as podpages/templates,
# and the wheel and the layer carry the files themselves.
TEMPLATES = "templates"
COMPILED = "templates_compiled"  # beside it in the layer: the templates as Python modules
TEMPLATE_SUFFIXES = (".html", ".xml", ".txt")  # templates/ also holds files served as they are


def loader(package: Path = Path(__file__).parent) -> BaseLoader:
    """The compiled templates where the package carries them, else the templates themselves."""
    compiled = package / COMPILED
    return ModuleLoader(compiled) if compiled.is_dir() else sources()


def sources() -> PackageLoader:
    """The templates themselves, as the package carries them."""
    return PackageLoader("podpages", TEMPLATES)


def escaped(value: Any) -> str:
    """What an expression writes into an autoescaped template: markupsafe's `escape`, as plain text.
    Jinja joins a template's output into one string, so the `Markup` that `escape` wraps each value
    in is made only to be taken apart: without it, an episode page took 88 us, not 108."""
    if type(value) is str:
        return _escape_inner(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return _escape_inner(str(value))


class _CodeGenerator(CodeGenerator):
    def _output_child_pre(self, node: Expr, frame: Frame, finalize: Any) -> None:
        """Each expression an autoescaped template outputs goes through `escaped`, where Jinja calls
        `escape`; the compiled template finds it on its environment. Jinja's own call stays where
        a template switches escaping on and off as it goes, and where a `finalize` is set."""
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write("environment.escaped(")
        else:
            super()._output_child_pre(node, frame, finalize)


class _Environment(Environment):
    code_generator_class = _CodeGenerator
    escaped = staticmethod(escaped)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one dict, where Jinja chains the template's own to the environment's:
        every render copies them into its context, and copying the chain took half of what rendering
        a short template took (5 of 11 us). No one changes the environment's globals once it is made."""
        return {**self.globals, **(d or {})}


@cache
def environment() -> Environment:
    env = _Environment(
        loader=loader(),
        autoescape=select_autoescape(enabled_extensions=("html", "xml"), default_for_string=True, default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # The templates ship inside the package and never change under a running process: without
        # this, every page asks the file system whether each template it includes is still current.
        auto_reload=False,
    )
    env.filters.update(
        rfc3339=rfc3339,
        calendar_date=calendar_date,
        human_duration=human_duration,
        iso_duration=iso_duration,
        offset_duration=offset_duration,
        clock=clock,
        file_size=file_size,
    )
    return env


def compile_templates(target: Path) -> None:
    """Every template, compiled from its source into a module of its own in `target`, as `loader`
    finds them. A template that does not compile fails the build, where Jinja would only log it."""
    environment().overlay(loader=sources()).compile_templates(  # the environment's settings, from the sources
        target,
        filter_func=lambda name: name.endswith(TEMPLATE_SUFFIXES),
        zip=None,
        log_function=lambda _message: None,
        ignore_errors=False,
    )


def load_templates() -> None:
    """Every template compiled, or imported from the layer's modules, into the environment now, as
    a process forks workers that render: each would otherwise compile those it uses itself."""
    env = environment()
    for name in sources().list_templates():
        if name.endswith(TEMPLATE_SUFFIXES):
            env.get_template(name)


def file_size(length: int) -> str:
    """Bytes for people: `950 B`, `20.2 MB`, `81 MB`."""
    size, unit = float(length), 0
    while round(size, 1) >= 1000 and unit < len(SIZE_UNITS) - 1:
        size /= 1000
        unit += 1
    return f"{size:.1f}".removesuffix(".0") + " " + SIZE_UNITS[unit]


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def template_file(name: str) -> bytes:
    """A file of templates/ that is served as it is, such as the default cover. Its absence means a
    package built without its templates, so the error names the file the package lacks."""
    try:
        return (files("podpages") / TEMPLATES / name).read_bytes()
    except FileNotFoundError as missing:
        raise FileNotFoundError(
            f"{TEMPLATES}/{name} is missing: the podpages package must carry {TEMPLATES}/"
        ) from missing
