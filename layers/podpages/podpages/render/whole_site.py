"""The from-scratch render: every object of the site, from the catalogs alone.

The publish path must leave the site bucket equal to this, byte for byte.
"""

from collections.abc import Iterator

from podpages.catalog.model import Catalog
from podpages.catalog.sitemap_parts import sitemap_parts
from podpages.catalog.staleness import everything
from podpages.render.plans import TranscriptSources, show_plan, site_plan
from podpages.render.site_objects import Plan
from podpages.settings import Settings

SITE = ""  # the label of the plan that belongs to no show


def render_site(
    catalogs: dict[str, Catalog], transcripts: TranscriptSources, settings: Settings
) -> Iterator[tuple[str, Plan]]:
    """Each show's plan in turn, labelled with its slug, then the site's own files. `transcripts` holds
    what each upload that has a transcript says: a JSON's text, or a companion's cues."""
    for show, catalog in sorted(catalogs.items()):
        yield show, show_plan(catalog, everything(catalog, settings.feed_max_items), settings, transcripts)
    yield (
        SITE,
        site_plan(
            {show: sitemap_parts(catalog, settings.feed_max_items) for show, catalog in catalogs.items()}, settings
        ),
    )
