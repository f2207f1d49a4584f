"""An episode's nearby listing as the API serves it: JSON for widgets and players, or the
very section its episode page shows."""

from typing import TYPE_CHECKING, Any

from podpages import site_paths

if TYPE_CHECKING:
    from podpages.nearby.index import CatalogIndex


def as_json(index: "CatalogIndex", slug: str, count: int, site_url: str) -> dict[str, Any]:
    episode = index.episode(slug)
    return {
        "show": {"slug": index.show, "title": index.show_title, "url": site_url + site_paths.show_home(index.show)},
        "episode": {"slug": episode.slug, "title": episode.title, "url": _url(index, episode.slug, site_url)},
        "items": [
            {
                "slug": item.slug,
                "title": item.title,
                "url": _url(index, item.slug, site_url),
                "published": item.published,
                "duration": item.duration,
                "duration_seconds": item.duration_seconds,
            }
            for item in index.nearby(slug, count)
        ],
    }


def as_html(index: "CatalogIndex", slug: str, count: int, site_url: str) -> str:
    # Jinja loads on the first HTML request, not in every cold start.
    from podpages.nearby_section import nearby_section

    return nearby_section(index.show, index.show_title, index.nearby(slug, count), site_url)


def _url(index: "CatalogIndex", slug: str, site_url: str) -> str:
    return site_url + site_paths.episode(index.show, slug)
