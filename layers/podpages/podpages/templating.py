"""The Jinja2 environment every page and sitemap is rendered with. Autoescaping is always on."""

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from podpages.durations import human_duration, iso_duration
from podpages.moments import calendar_date, rfc3339

# The layer build copies templates/ into the package; a source checkout keeps them at the root.
TEMPLATE_DIRS = (Path(__file__).parent / "templates", Path(__file__).parents[3] / "templates")


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader([str(directory) for directory in TEMPLATE_DIRS]),
        autoescape=select_autoescape(enabled_extensions=("html", "xml"), default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        rfc3339=rfc3339,
        calendar_date=calendar_date,
        human_duration=human_duration,
        iso_duration=iso_duration,
    )
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(**context)
