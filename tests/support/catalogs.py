"""Building catalogs and settings for tests from the example files and from small dictionaries."""

import json
from datetime import UTC, datetime, timedelta

from podpages.catalog.changes import EpisodePut, ShowPut
from podpages.catalog.feed_archives import cut
from podpages.catalog.layout import LAYOUT_VERSION, cut_pages
from podpages.catalog.model import Catalog
from podpages.catalog.nearby_index import nearby_index
from podpages.catalog.page_bounds import PageBounds
from podpages.cli.source_folder import read_source_folder
from podpages.contract.documents import parse_episode, parse_show
from podpages.contract.source_keys import parse_source_key
from podpages.nearby.index import CatalogIndex
from podpages.publish.catalog_store import CatalogStore
from podpages.settings import Settings
from podpages.storage.joined_body import Pieces
from podpages.storage.source_bucket import SourceBucket
from support.paths import EXAMPLES

SITE_URL = "https://podcasts.example.com"
SETTINGS = Settings(site_url=SITE_URL)


def example_folder(settings: Settings = SETTINGS):
    return read_source_folder(EXAMPLES, settings)


def episode_document(title: str = "An episode", published: str = "2026-01-01T10:00:00Z", **fields) -> dict:
    return {
        "title": title,
        "published": published,
        "duration": "PT4M5S",
        "summary": f"The summary of {title}.",
        "audio": {"url": "https://media.example.com/a.mp3", "type": "audio/mpeg", "length": 1000},
        **fields,
    }


def show_document(title: str = "A show", **fields) -> dict:
    return {
        "title": title,
        "description": "A show about things.",
        "categories": ["Technology"],
        "author": "Someone",
        **fields,
    }


def put_episode(show: str, slug: str, document: dict, sequencer: str | None = None) -> EpisodePut:
    return EpisodePut(
        parse_source_key(f"episodes/{show}/{slug}.json"), parse_episode(json.dumps(document).encode()), sequencer
    )


def put_show(show: str, document: dict, sequencer: str | None = None) -> ShowPut:
    return ShowPut(parse_source_key(f"shows/{show}.json"), parse_show(json.dumps(document).encode()), sequencer)


def daily_catalog(
    count: int, show: str = "daily", settings: Settings = SETTINGS, start=datetime(2025, 12, 20, 9, tzinfo=UTC)
) -> Catalog:
    """`count` episodes one day apart, named e01, e02, … in publish order."""
    catalog = Catalog(show=show)
    for number in range(1, count + 1):
        published = (start + timedelta(days=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        document = episode_document(f"Episode {number}", published)
        catalog = catalog.apply(put_episode(show, f"e{number:02d}", document), settings.excerpt_chars)
    return catalog


def daily_bounds(count: int, feed_max_items: int) -> PageBounds:
    """The archive pages of `daily_catalog(count)`, cut from its slugs alone."""
    return PageBounds.of_counts(cut([f"e{number:02d}" for number in range(1, count + 1)], feed_max_items))


def indexed(catalog: Catalog) -> CatalogIndex:
    """The catalog as the nearby API reads it: from the JSON the render function commits."""
    return CatalogIndex.from_json(catalog.model_dump_json().encode())


def stored_nearby_index(catalog: Catalog, feed_max_items: int) -> tuple[bytes, dict[str, bytes]]:
    """The show's nearby index as the render function stores it, and its parts by digest: each the
    head of its frozen page's object, as the nearby function reads it by range."""
    cut = list(cut_pages(catalog, feed_max_items))
    parts = {page.summary.nearby: page.body[: page.summary.nearby_bytes] for page in cut}
    return nearby_index(catalog, feed_max_items, [page.summary for page in cut], LAYOUT_VERSION), parts


def read_for_listing(index: bytes, parts: dict[str, bytes], slug: str, count: int) -> tuple[CatalogIndex, list[int]]:
    """The index read as the nearby function reads it for one listing, and the pages whose parts it read."""
    read = CatalogIndex.from_nearby_json(index)
    pages = []
    while wanted := read.wanted(slug, count):
        for number, page in wanted:
            read.add(page.digest, parts[page.digest])
            pages.append(number)
    return read, pages


def stored(catalog: Catalog) -> tuple[str, Pieces | None]:
    """A catalog as an earlier podpages stored it, in one object, for `SourceBucket.write_catalog`:
    its show and its bytes, in one piece, or None where it keeps nothing."""
    body = catalog.model_dump_json().encode()
    return catalog.show, None if catalog.keeps_nothing else lambda: iter([body])


def commit_catalog(source: SourceBucket, catalog: Catalog, settings: Settings = SETTINGS) -> None:
    """Store the catalog as the render function commits it, over whatever the show has."""
    store = CatalogStore(source, settings)
    store.commit(store.read(catalog.show), catalog)
