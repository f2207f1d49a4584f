"""The from-scratch render: every object of the site, from the catalogs alone (behaviour 7).

The publish path must leave the site bucket equal to this, byte for byte.
"""

from collections.abc import Iterator

from podpages.catalog import Catalog
from podpages.refresh import everything
from podpages.settings import Settings
from podpages.show_site import show_plan, site_plan
from podpages.site_objects import Plan
from podpages.sitemaps import sitemap_parts

SITE = ""  # the label of the plan that belongs to no show


def render_site(
    catalogs: dict[str, Catalog], transcripts: dict[str, dict[str, str]], settings: Settings
) -> Iterator[tuple[str, Plan]]:
    """Each show's plan in turn, labelled with its slug, then the site's own files."""
    for show, catalog in sorted(catalogs.items()):
        yield show, show_plan(catalog, everything(catalog, transcripts.get(show, {})), settings)
    yield SITE, site_plan({show: sitemap_parts(catalog) for show, catalog in catalogs.items()}, settings)
