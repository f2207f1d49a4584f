"""A show's catalog in the source bucket: read a window at a time, committed as an index beside its
frozen pages (`catalog.layout`, `catalog.window`)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from podpages.catalog.changes import Change
from podpages.catalog.layout import LAYOUT_VERSION, StoredIndex, StoredPage, join, page_key_name, page_names, split
from podpages.catalog.model import Catalog
from podpages.catalog.page_summary import PageSummary
from podpages.catalog.stored import leading_version
from podpages.catalog.window import first_page
from podpages.errors import CatalogConflict
from podpages.settings import Settings
from podpages.storage.source_bucket import SourceBucket

MAX_READS = 8  # times a read starts over when a commit replaced a page it was about to read


@dataclass(frozen=True)
class HeldCatalog:
    """A catalog as read, with what its commit is made over."""

    catalog: Catalog
    etag: str | None  # of the object read; None when the show had none
    index: StoredIndex | None  # that object, when it was an index

    def cut_for(self, feed_max_items: int) -> bool:
        """Whether the catalog is stored as this podpages stores it for a feed of that size."""
        return self.etag is None or (self.index is not None and self.index.feed_max_items == feed_max_items)


class CatalogStore:
    def __init__(self, source: SourceBucket, settings: Settings):
        self.source = source
        self.settings = settings

    def read(self, show: str, changes: Iterable[Change] | None = None) -> HeldCatalog:
        """The show's catalog, as much of it as `changes` need (`catalog.window`); all of it without."""
        if changes is None:
            return read_catalog(self.source, show)
        changes = list(changes)
        return read_catalog(self.source, show, lambda index: first_page(index, changes, self.settings))

    def commit(self, held: HeldCatalog, catalog: Catalog) -> None:
        """Store `catalog` over `held`, if nobody has committed since it was read: the frozen pages
        that changed, the index, then the deletion of the pages it no longer names. A lost race
        raises CatalogConflict, having deleted the pages it wrote that the winner does not name."""
        show, before = catalog.show, page_names(held.index) if held.index else set()
        if catalog.keeps_nothing:
            self.source.write_catalog(show, None, held.etag)
            self.source.delete_catalog_pages(show, before)
            return
        cut = split(catalog, self.settings.feed_max_items)
        pages = {page_key_name(page, digest): body for page, (digest, body) in cut.pages.items()}
        pages = {name: body for name, body in pages.items() if name not in before}
        held_parts = set(enumerate((page.nearby for page in held.index.pages), 1)) if held.index else set()
        parts = {
            (page, digest): body for page, (digest, body) in cut.nearby.items() if (page, digest) not in held_parts
        }
        for name, body in pages.items():
            self.source.write_catalog_page(show, name, body)
        for (page, digest), body in parts.items():  # the nearby index names it once the listings are written
            self.source.write_nearby_part(show, page, digest, body)
        try:
            self.source.write_catalog(show, cut.index, held.etag)
        except CatalogConflict:
            self._take_back(show, set(pages), set(parts))
            raise
        self.source.delete_catalog_pages(show, before - cut.names)

    def _take_back(self, show: str, pages: set[str], parts: set[tuple[int, str]]) -> None:
        """After a lost race, delete the pages and nearby parts this commit wrote that the winner's
        index does not name: the winner may have written the very same ones, named by their content."""
        winner = self.source.read_catalog(show)
        kept: tuple[PageSummary, ...] = ()
        if winner and leading_version(winner.body) == LAYOUT_VERSION:
            kept = StoredIndex.model_validate_json(winner.body).pages
        self.source.delete_catalog_pages(
            show, pages - {page_key_name(n, page.digest) for n, page in enumerate(kept, 1)}
        )
        self.source.delete_nearby_parts(show, parts - {(n, page.nearby) for n, page in enumerate(kept, 1)})


def read_catalog(
    source: SourceBucket, show: str, first: Callable[[StoredIndex], int] = lambda _index: 1
) -> HeldCatalog:
    """The show's catalog, from the frozen page `first` names on: all of it by default."""
    for _attempt in range(MAX_READS):
        stored = source.read_catalog(show)
        if stored is None:
            return HeldCatalog(Catalog(show=show), None, None)
        if leading_version(stored.body) != LAYOUT_VERSION:  # one object, as an earlier podpages stored it
            return HeldCatalog(Catalog.model_validate_json(stored.body), stored.etag, None)
        index = StoredIndex.model_validate_json(stored.body)
        names = {
            page: page_key_name(page, index.pages[page - 1].digest)
            for page in range(first(index), len(index.pages) + 1)
        }
        bodies = source.read_catalog_pages(show, names.values())
        if all(body is not None for body in bodies.values()):
            pages = {page: StoredPage.model_validate_json(bodies[name] or b"") for page, name in names.items()}
            return HeldCatalog(join(index, pages), stored.etag, index)
    raise CatalogConflict(show)
