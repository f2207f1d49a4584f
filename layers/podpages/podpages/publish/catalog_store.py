"""A show's catalog in the source bucket: read a window at a time, committed as an index beside its
frozen pages and its years' listings (`catalog.layout`, `catalog.window`)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import chain

from podpages.catalog.changes import Change
from podpages.catalog.layout import (
    INDEX_VERSIONS,
    LAYOUT_VERSION,
    Split,
    StoredIndex,
    StoredPage,
    StoredYear,
    cut_pages,
    join,
    object_names,
    read_index,
    read_page,
    split,
    year_key_name,
)
from podpages.catalog.model import Catalog
from podpages.catalog.page_summary import PageSummary
from podpages.catalog.spooled_text import TextSpool
from podpages.catalog.stored import NEARBY_LINE_SINCE, leading_version, load_nearby_index, named_by, page_key_name
from podpages.catalog.window import WHOLE, Reach, Window, window
from podpages.errors import CatalogConflict
from podpages.settings import Settings
from podpages.storage.catalog_writes import CatalogWrites
from podpages.storage.retired_objects import RetiredObjects
from podpages.storage.source_bucket import SourceBucket

MAX_READS = 8  # times a read starts over when a commit replaced a page it was about to read


@dataclass(frozen=True)
class HeldCatalog:
    """A catalog as read, with what its commit is made over."""

    catalog: Catalog
    etag: str | None  # of the object read; None when the show had none
    index: StoredIndex | None  # that object, when it was an index

    def cut_for(self, feed_max_items: int) -> bool:
        """Whether the catalog is stored as this podpages stores it for a feed of that size: an index
        of this version, cut for it."""
        index = self.index
        return self.etag is None or (
            index is not None and index.feed_max_items == feed_max_items and index.version == LAYOUT_VERSION
        )


class CatalogStore:
    def __init__(self, source: SourceBucket, settings: Settings):
        self.source = source
        self.settings = settings

    def read(self, show: str, changes: Iterable[Change] | None = None, reach: Reach = Reach.NEAR) -> HeldCatalog:
        """The show's catalog, as much of it as `changes` need, read as narrowly as `reach` says
        (`catalog.window`); all of it without changes."""
        if changes is None:
            return read_catalog(self.source, show)
        changes = list(changes)
        return read_catalog(self.source, show, lambda index: window(index, changes, self.settings, reach))

    def commit(self, held: HeldCatalog, catalog: Catalog, retired: RetiredObjects | None = None) -> None:
        """Store `catalog` over `held`, if nobody has committed since it was read: the frozen pages
        and years' listings that changed, the index with the show's nearby index as its first line,
        then the deletion of those it no longer names, at once or, given `retired`, with the rest of
        the publish's. A lost race raises CatalogConflict, having deleted those it wrote that the
        winner does not name. The nearby index an earlier podpages stored apart goes after the first
        commit of this one, with what it named that the index does not."""
        show, before = catalog.show, object_names(held.index) if held.index else set()
        replaced = RetiredObjects(self.source) if retired is None else retired
        if catalog.keeps_nothing:
            self.source.write_catalog(show, None, held.etag)
            names: frozenset[str] = frozenset()
        else:
            names = self._write(held, catalog, before).names
        if self._nearby_index_apart(held) and (stored := self.source.read_nearby_index(show)):
            before |= named_by(load_nearby_index(stored.body))
            replaced.nearby_index(show)
        replaced.catalog_pages(show, before - names)
        if retired is None:
            replaced.delete()

    @staticmethod
    def _nearby_index_apart(held: HeldCatalog) -> bool:
        """Whether the show's catalog as read may have a nearby index apart: one stored by an
        earlier podpages, as one object or as an index before `NEARBY_LINE_SINCE`."""
        return held.etag is not None and (held.index is None or held.index.version < NEARBY_LINE_SINCE)

    def _write(self, held: HeldCatalog, catalog: Catalog, before: set[str]) -> Split:
        """The frozen pages (each with its nearby part) and years' listings `held` lacks, each written
        as it is cut, then the index: the catalog as cut, which names its pages and listings."""
        show, feed_max_items = catalog.show, self.settings.feed_max_items
        summaries: dict[int, PageSummary] = {}
        with CatalogWrites(self.source) as writes:
            for page in cut_pages(catalog, feed_max_items):
                summaries[page.number] = summary = page.summary
                if (name := page_key_name(page.number, summary.digest)) not in before:
                    writes.catalog_page(show, name, page.body)
            cut = split(catalog, feed_max_items, summaries)
            for year, (digest, body) in cut.years.items():
                if (name := year_key_name(year, digest)) not in before:
                    writes.catalog_page(show, name, body)
        try:
            self.source.write_catalog(show, cut.index, held.etag)
        except CatalogConflict:
            self._take_back(show, writes.pages)
            raise
        return cut

    def _take_back(self, show: str, pages: set[str]) -> None:
        """After a lost race, delete the pages and listings this commit wrote that the winner's index
        does not name: the winner may have written the very same ones, named by their content."""
        winner = self.source.read_catalog(show)
        index = None
        if winner and leading_version(winner.body) in INDEX_VERSIONS:
            # The names are in the index's first lines: its head's entries, one a line, are not parsed.
            index = read_index(winner.body.split(b"\n", 2)[:2])
        self.source.delete_catalog_pages(show, pages - (object_names(index) if index else set()))


def read_catalog(
    source: SourceBucket, show: str, reach: Callable[[StoredIndex], Window] = lambda _index: WHOLE
) -> HeldCatalog:
    """The show's catalog, as much of it as `reach` names: all of it by default. The long texts of
    its entries are set aside on disk while it is held (`catalog.spooled_text`)."""
    spool = TextSpool()
    for _attempt in range(MAX_READS):
        stored = source.read_catalog_lines(show)
        if stored is None:
            return HeldCatalog(Catalog(show=show), None, None)
        first = next(stored.lines, b"")
        if leading_version(first) not in INDEX_VERSIONS:  # one object, as an earlier podpages stored it
            return HeldCatalog(Catalog.model_validate_json(first + b"".join(stored.lines)), stored.etag, None)
        index = read_index(chain([first], stored.lines), spool)
        read = reach(index)
        page_of = {page_key_name(page, index.pages[page - 1].digest): page for page in read.pages(len(index.pages))}
        year_of = {year_key_name(year, (index.years or {})[year]): year for year in read.years}
        pages: dict[int, StoredPage] = {}
        years: dict[int, StoredYear] = {}
        # Each is parsed as it is read, its bytes let go: a removal reads every page after its episode's.
        for name, body in source.read_catalog_pages(show, [*page_of, *year_of]):
            if body is None:
                break  # replaced by a commit since the index was read: read it again
            if name in page_of:  # a removal reads 990 pages: their excerpts are set aside too
                pages[page_of[name]] = read_page(body, index, spool.context_with_paragraphs)
            else:
                years[year_of[name]] = StoredYear.model_validate_json(body)
        else:
            return HeldCatalog(join(index, pages, years), stored.etag, index)
    raise CatalogConflict(show)
