"""How a show's catalog is stored: a small index beside its frozen pages (`feed_archives`).

`catalog/<show>.json`, the index, holds the show's nearby index (`catalog.nearby_index`) on its
first line, which the nearby function reads by range, then the show's document, the episodes after its frozen pages
(the head: at least the feed's newest `FEED_MAX_ITEMS`), the companion transcripts of those and of
episodes not published yet, the trailers of the frozen pages (every feed names them), and a summary
of each frozen page (`page_summary`). Each frozen page is an object of its own,
`catalog/<show>/page-<n>-<digest>.json`, named by its content: its part of the nearby index
(`catalog.nearby_index`) on its first line, which the nearby function reads by range, then its
entries and their companions. Each year with episodes in
the frozen pages has a listing of them (`listed_episode`), from which a publish renders that year's
archive page: an hourly show's year fills 88 frozen pages, and a listing of its 8,760 episodes is
about 1.4 MB. The listing of the year the frozen pages end in, which a page that freezes adds to,
is in the index (`listed`); each year before it, which no new episode changes, has an object of its
own, `catalog/<show>/year-<year>-<digest>.json`.

The index is stored a line at a time (JSON Lines): the nearby index, the line of its own fields, then
a line for each entry of its head, so that a publish reads and parses the head an entry at a time, and writes it
from an entry at a time (`storage.joined_body`). At the contract's maximum the head is 164 MB:
parsed as one document it held its text, its models and the parse's leftovers at once.

The index is what a publish commits, with a conditional write over the version it read. The pages
that changed are written before it, each under a new name, as they are cut (`cut_pages`), and the
pages it no longer names are deleted after it, so a reader holding an index finds every page it
names. A new newest episode writes the index alone, and a page once in 100 publishes, when the
head's oldest episodes freeze (and once a year the listing of the year before theirs). A catalog
whose frozen pages were cut for another feed size, or by an earlier podpages (an index of an
earlier version), is read whole and cut again.
"""

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from podpages.catalog.companions import Companion
from podpages.catalog.feed_archives import archive_bounds, archive_entries, frozen_count, head
from podpages.catalog.listed_episode import ListedEpisode
from podpages.catalog.model import Catalog, CatalogEntry, NotLoaded, default_episode_guid
from podpages.catalog.nearby_index import nearby_index, nearby_part, part_digest
from podpages.catalog.page_summary import PageSummary, YearCount
from podpages.catalog.spooled_text import TextSpool
from podpages.catalog.stored import NEARBY_LINE_SINCE, leading_version, page_key_name, slug_hash
from podpages.contract.documents import Show

# An index written a line at a time, with the listing of its frozen pages' last year, pages that
# freeze a publish after an archive page fills (`frozen_count`), pages cut by their episodes' slugs
# (`feed_archives.cut`), each page's nearby part at the head of its object, and the show's nearby
# index as its first line (`stored.NEARBY_LINE_SINCE`).
LAYOUT_VERSION: Final = 8
# Read still: 2, one JSON document; 3, lines, with that year's listing in an object of its own; 4,
# as 5, but with pages that froze in the publish that filled an archive page; 5, as 6, but with
# pages of a fixed size; 6, as 7, but with each page's nearby part an object of its own; 7, as 8,
# but with the nearby index an object of its own.
INDEX_VERSIONS = (2, 3, 4, 5, 6, 7, LAYOUT_VERSION)
PAGE_HEADS_SINCE: Final = 7  # the first version whose frozen pages begin with their nearby parts
DIGEST_DIGITS = 16
# What the index's line of fields leaves out: its head's entries, lines of their own, and its pages'
# slug hashes, which its nearby index holds.
STORED_APART: Final[Mapping[str, bool | Mapping[str, set[str]]]] = {"episodes": True, "pages": {"__all__": {"slugs"}}}


class StoredPage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[2] = 2
    show: str
    page: int
    episodes: tuple[CatalogEntry, ...]  # in publish order, oldest first
    companions: tuple[Companion, ...]  # of those episodes, by slug and format


class StoredYear(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[2] = 2
    show: str
    year: int
    episodes: tuple[ListedEpisode, ...]  # that year's in the frozen pages, in publish order, oldest first


class StoredIndex(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[2, 3, 4, 5, 6, 7, 8] = LAYOUT_VERSION
    show: str
    document: Show | None
    document_sequencer: str | None
    feed_max_items: int  # the feed size the frozen pages were cut for
    pages: tuple[PageSummary, ...]  # each frozen page, oldest first
    trailers: tuple[tuple[int, CatalogEntry], ...]  # each trailer in a frozen page, with the page's number
    companions: tuple[Companion, ...]  # of the head's episodes and of episodes not published yet
    episodes: tuple[CatalogEntry, ...] = ()  # the head, in publish order, oldest first: its lines
    # The digest of the listing of each year of the frozen pages before the last (of every year, in
    # version 3); None in an index stored before they were kept.
    years: dict[int, str] | None = None
    listed: tuple[ListedEpisode, ...] = ()  # the frozen pages' episodes of their last year, oldest first

    @property
    def count(self) -> int:
        return sum(page.count for page in self.pages) + len(self.episodes)

    @property
    def listed_year(self) -> int | None:
        """The year the frozen pages end in, whose listing the index holds; None without frozen pages."""
        return last_year(self.pages)


def last_year(pages: Sequence[PageSummary]) -> int | None:
    """The year of the newest episode of frozen pages `pages`."""
    return pages[-1].last[0].year if pages else None


@dataclass(frozen=True)
class CutPage:
    """A frozen page the catalog holds, as stored: its object, its part of the nearby index at its
    head, and the index's summary of it, which names it by its digest."""

    number: int
    body: bytes
    summary: PageSummary


@dataclass(frozen=True)
class Split:
    """A catalog cut for storing: its index, and the listings of the years before the last it tells
    anew, each with its digest. Its frozen pages are cut apart (`cut_pages`)."""

    index: Callable[[], Iterator[bytes]]  # its lines, made again at each call (`index_lines`)
    years: dict[int, tuple[str, bytes]]  # the listings of the years it tells anew, with their digests
    names: frozenset[str]  # of every page and listing the index names
    pages: tuple[PageSummary, ...]  # the index's summary of each frozen page, oldest first


def cut_pages(catalog: Catalog, feed_max_items: int) -> Iterator[CutPage]:
    """The frozen pages the catalog holds, oldest first, each made as stored when it is asked for: a
    removal that shifts every page after its episode's holds one page's bytes at a time, not all."""
    show, held = catalog.show, _held_pages(catalog, feed_max_items)
    page_of = {entry.slug: page for page, entries in held.items() for entry in entries}
    companions: dict[int, list[Companion]] = {page: [] for page in held}
    for companion in catalog.companions:
        if (page := page_of.get(companion.slug)) is not None:
            companions[page].append(companion)
    for page, entries in held.items():
        part = nearby_part(show, page, entries)
        stored = StoredPage(show=show, page=page, episodes=entries, companions=tuple(companions[page]))
        body = part + b"\n" + _json(stored)
        yield CutPage(page, body, summary(show, _digest(body), entries, part_digest(part), len(part)))


def read_page(body: bytes, index: StoredIndex, context: dict[str, Any] | None = None) -> StoredPage:
    """A frozen page from its object, which the index names: after its nearby part, from version 7."""
    if index.version >= PAGE_HEADS_SINCE:
        body = body.split(b"\n", 1)[1]
    return StoredPage.model_validate_json(body, context=context)


def split(catalog: Catalog, feed_max_items: int, held: Mapping[int, PageSummary] | None = None) -> Split:
    """The catalog as stored, given the summaries of the frozen pages it holds (`cut_pages`; made
    here when not given). Its frozen pages not held keep the summaries it has of them, and the
    years before the one they end in keep their listings."""
    bounds = archive_bounds(catalog, feed_max_items)
    frozen = frozen_count(bounds, catalog.count, feed_max_items)
    unheld = {page: known for page in range(1, frozen + 1) if (known := catalog.unheld(page))}
    if len(unheld) < len(catalog.earlier) + len(catalog.gap):
        raise ValueError(f"{catalog.show!r} lost frozen pages it does not hold")
    held_pages = _held_pages(catalog, feed_max_items)
    if held is None:
        held = {cut.number: cut.summary for cut in cut_pages(catalog, feed_max_items)}
    page_of = {entry.slug: page for page, entries in held_pages.items() for entry in entries}
    summaries = dict(unheld) | {page: held[page] for page in held_pages}
    listed_year = last_year([summaries[page] for page in sorted(summaries)])  # the index holds its listing
    listed: tuple[ListedEpisode, ...] = ()
    years: dict[int, tuple[str, bytes]] = {}
    for year, rows in _listings(catalog, bounds.start(frozen + 1)):
        if year == listed_year:
            listed = tuple(rows)
        else:
            years[year] = _stored(StoredYear(show=catalog.show, year=year, episodes=tuple(rows)))
    gap_pages = {page: known for page, known in unheld.items() if page > len(catalog.earlier)}
    trailers = [*_numbered(dict(enumerate(catalog.earlier, 1)), catalog.earlier_trailers)]
    trailers += _numbered(gap_pages, catalog.gap_trailers)
    trailers += [(page_of[entry.slug], entry) for entry in catalog.trailers() if entry.slug in page_of]
    trailers.sort(key=lambda numbered: (numbered[0], numbered[1].order))
    index = StoredIndex(
        show=catalog.show,
        document=catalog.document,
        document_sequencer=catalog.document_sequencer,
        feed_max_items=feed_max_items,
        pages=tuple(summaries[page] for page in sorted(summaries)),
        trailers=tuple(trailers),
        episodes=catalog.episodes[catalog.held(bounds.start(frozen + 1)) :],
        companions=tuple(companion for companion in catalog.companions if companion.slug not in page_of),
        years=_year_digests(catalog, {year: digest for year, (digest, _body) in years.items()}),
        listed=listed,
    )
    nearby = nearby_index(catalog, feed_max_items, index.pages, LAYOUT_VERSION)
    return Split(index_lines(index, nearby), years, frozenset(object_names(index)), index.pages)


def _held_pages(catalog: Catalog, feed_max_items: int) -> dict[int, tuple[CatalogEntry, ...]]:
    """The entries of each frozen page the catalog holds, by number."""
    bounds = archive_bounds(catalog, feed_max_items)
    frozen = frozen_count(bounds, catalog.count, feed_max_items)
    return {page: archive_entries(catalog, bounds, page) for page in range(1, frozen + 1) if not catalog.unheld(page)}


def _listings(catalog: Catalog, frozen_count: int) -> Iterator[tuple[int, list[ListedEpisode]]]:
    """The listing of each year the catalog tells anew (`_renews`) of the first `frozen_count`
    episodes, oldest year first, from the listings of the frozen pages not held next to those it
    holds, which it must have read (the index holds that of the year the frozen pages end in), and
    from the episodes it holds. Each is made when it is asked for: a removal that shifts every page
    after its episode's tells anew the listings of all the years after it, 99,000 episodes at 100,000."""
    held = catalog.episodes[: catalog.held(frozen_count)]
    at = catalog.gap_at if catalog.gap else len(held)
    runs: tuple[
        tuple[Sequence[PageSummary], Mapping[int, Sequence[ListedEpisode]], Mapping[int, list[CatalogEntry]]], ...
    ] = (
        (catalog.earlier[-1:], catalog.earlier_listed, {}),
        ((), {}, _by_year(held[:at])),
        ((*catalog.gap[:1], *catalog.gap[-1:]), catalog.gap_listed, {}),
        ((), {}, _by_year(held[at:])),
    )
    years = {year for _, _, entries in runs for year in entries}
    years |= {year for pages, _, _ in runs for page in pages for year in page.years}
    for year in sorted(year for year in years if _renews(catalog, year)):
        episodes: list[ListedEpisode] = []
        for pages, listings, entries in runs:
            if any(year in page.years for page in pages):
                if year not in listings:
                    raise ValueError(f"{catalog.show!r} lost the listing of {year}, which it does not hold")
                episodes += listings[year]
            episodes += (entry.listed() for entry in entries.get(year, ()))
        if episodes:
            yield year, episodes


def _by_year(entries: Sequence[CatalogEntry]) -> dict[int, list[CatalogEntry]]:
    """The entries of each year, in the order given."""
    years: dict[int, list[CatalogEntry]] = {}
    for entry in entries:
        years.setdefault(entry.published.year, []).append(entry)
    return years


def _renews(catalog: Catalog, year: int) -> bool:
    """Whether the catalog tells the listing of `year` anew, or drops it: each year from the one the
    frozen pages before those it holds end in, to the one the frozen pages of its gap begin in, and
    each from the one those end in. The years between lie wholly in frozen pages it does not hold; so
    does the year the pages before end in, when its listing was not read (`check_listings`)."""
    since = catalog.earlier[-1].last[0].year if catalog.earlier else None
    if year == since and since not in catalog.earlier_listed:
        return False
    if (since is not None and year < since) or not catalog.gap:
        return since is None or year >= since
    return year <= min(catalog.gap[0].years) or year >= catalog.gap[-1].last[0].year


def check_listings(before: Catalog, after: Catalog, feed_max_items: int) -> None:
    """NotLoaded when a catalog read without the listing of the year its frozen pages not held end in
    (`catalog.window`) must tell that listing anew after its changes (`before` to `after`): its
    frozen pages held begin in that year and the changes altered what they list of it, or it holds
    none any more, so that the index takes that listing in."""
    if not after.earlier or (since := after.earlier[-1].last[0].year) in after.earlier_listed:
        return
    held = _frozen_held(after, feed_max_items)
    if not held or _listed_in(held, since) != _listed_in(_frozen_held(before, feed_max_items), since):
        raise NotLoaded(f"the listing of {since} of {after.show!r}, which its commit tells anew, was not read")


def _frozen_held(catalog: Catalog, feed_max_items: int) -> tuple[CatalogEntry, ...]:
    """The entries of the frozen pages the catalog holds, oldest first: those before its head."""
    return catalog.episodes[: len(catalog.episodes) - len(head(catalog, feed_max_items))]


def _listed_in(entries: Sequence[CatalogEntry], year: int) -> list[ListedEpisode]:
    """What a listing of `year` shows of `entries`."""
    return [entry.listed() for entry in entries if entry.published.year == year]


def _year_digests(catalog: Catalog, told: dict[int, str]) -> dict[int, str]:
    """The digest of the listing of every year before the last: those `told` anew, and those of the
    years it does not tell anew (`_renews`), which lie wholly in the frozen pages not held."""
    kept = {year: digest for year, digest in catalog.earlier_years.items() if not _renews(catalog, year)}
    return kept | told


def join(index: StoredIndex, pages: Mapping[int, StoredPage], years: Mapping[int, StoredYear] | None = None) -> Catalog:
    """The catalog of an index and of frozen pages `pages`: its last ones (from some page to the
    last), or those with a run of pages left out between them (the catalog's gap). It knows the
    pages it does not hold by their summaries, and by their listings of the years of `years` and of
    the year the index lists."""
    total = len(index.pages)
    first = min(pages, default=total + 1)
    skipped = [page for page in range(first, total + 1) if page not in pages]
    gap_first, gap_last = (skipped[0], skipped[-1]) if skipped else (total + 1, total)
    if set(pages) - set(range(first, total + 1)) or len(skipped) != gap_last - gap_first + 1:
        raise ValueError(f"pages {sorted(pages)} of {index.show!r} are not its last ones, with one gap at most")
    held = [pages[page] for page in sorted(pages)]
    earlier, gap = index.pages[: first - 1], index.pages[gap_first - 1 : gap_last]
    listings = {year: stored.episodes for year, stored in (years or {}).items()}
    if index.listed_year is not None and index.version == LAYOUT_VERSION:
        listings[index.listed_year] = index.listed
    companions = [companion for page in held for companion in page.companions] + list(index.companions)
    return Catalog(
        show=index.show,
        document=index.document,
        document_sequencer=index.document_sequencer,
        episodes=(*(entry for page in held for entry in page.episodes), *index.episodes),
        companions=tuple(sorted(companions, key=lambda companion: (companion.slug, companion.format))),
        earlier=earlier,
        earlier_trailers=tuple(entry for page, entry in index.trailers if page < first),
        earlier_years=(index.years or {}) if earlier or gap else {},
        earlier_listed=_listed_within(listings, None, earlier[-1].last) if earlier else {},
        gap=gap,
        gap_at=sum(len(pages[page].episodes) for page in range(first, gap_first)) if gap else 0,
        gap_page=gap_first if gap else 0,
        gap_trailers=tuple(entry for page, entry in index.trailers if gap_first <= page <= gap_last),
        gap_listed=_listed_within(listings, index.pages[gap_first - 2].last, gap[-1].last) if gap else {},
    )


def _listed_within(
    listings: Mapping[int, Sequence[ListedEpisode]], after: tuple[datetime, str] | None, last: tuple[datetime, str]
) -> dict[int, tuple[ListedEpisode, ...]]:
    """Of each year's listing, the episodes after `after` (from the first, without it) up to `last`."""
    return {
        year: tuple(
            episode for episode in episodes if (after is None or after < episode.order) and episode.order <= last
        )
        for year, episodes in listings.items()
    }


def summary(show: str, digest: str, entries: Sequence[CatalogEntry], nearby: str, nearby_bytes: int) -> PageSummary:
    years: dict[int, YearCount] = {}
    for entry in entries:
        held = years.get(entry.published.year)
        count, latest = (held.count, max(held.latest, entry.published)) if held else (0, entry.published)
        years[entry.published.year] = YearCount(count=count + 1, latest=latest)
    custom = [entry.guid for entry in entries if entry.guid != default_episode_guid(show, entry.slug)]
    return PageSummary(
        digest=digest,
        count=len(entries),
        last=entries[-1].order,
        years=years,
        slugs="".join(slug_hash(entry.slug) for entry in entries),
        guids="".join(slug_hash(guid) for guid in custom),
        nearby=nearby,
        nearby_bytes=nearby_bytes,
    )


def year_key_name(year: int, digest: str) -> str:
    """A year's listing of the frozen pages, in the show's folder beside its index."""
    return f"year-{year}-{digest}.json"


def object_names(index: StoredIndex) -> set[str]:
    """The names of the objects the index names: its frozen pages and its years' listings."""
    pages = {page_key_name(page, summary.digest) for page, summary in enumerate(index.pages, 1)}
    return pages | {year_key_name(year, digest) for year, digest in (index.years or {}).items()}


def _stored(stored: BaseModel) -> tuple[str, bytes]:
    """A part of the catalog as stored, and the digest that names it."""
    body = _json(stored)
    return _digest(body), body


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:DIGEST_DIGITS]


def index_lines(index: StoredIndex, nearby: bytes) -> Callable[[], Iterator[bytes]]:
    """The index as stored, its lines made at each call, one at a time: the show's `nearby` index,
    the index's own fields, then each entry of its head. The nearby index holds the hashes of each
    frozen page's slugs, so the fields' summaries of the pages leave them out: at 100,000 episodes
    they are 600 KB. JSON as pydantic writes it holds no line break: those in text are escaped."""
    fields = index.__pydantic_serializer__.to_json(index, exclude=STORED_APART) + b"\n"

    def lines() -> Iterator[bytes]:
        yield nearby + b"\n"
        yield fields
        for entry in index.episodes:
            yield _json(entry) + b"\n"

    return lines


def read_index(lines: Iterable[bytes], spool: TextSpool | None = None) -> StoredIndex:
    """An index from its lines (`index_lines`), its head's entries parsed one at a time, their long
    texts set aside in `spool` if given; or from the one line of an index stored as one JSON
    document (version 2). Its pages' slug hashes are read from its nearby index (version 8 on)."""
    lines, context = iter(lines), spool.context if spool else None
    first = next(lines)
    if (leading_version(first) or 0) < NEARBY_LINE_SINCE:
        index = StoredIndex.model_validate_json(first, context=context)
    else:
        hashes = [page[0] for page in json.loads(first)["pages"]]
        index = StoredIndex.model_validate_json(next(lines), context=context)
        pages = (page.model_copy(update={"slugs": slugs}) for page, slugs in zip(index.pages, hashes, strict=True))
        index = index.model_copy(update={"pages": tuple(pages)})
    if index.version == 2:
        return index
    entries = tuple(CatalogEntry.model_validate_json(line, context=context) for line in lines)
    return index.model_copy(update={"episodes": entries})


def _json(stored: BaseModel) -> bytes:
    """The JSON pydantic writes for `stored`, as the bytes it makes: `model_dump_json` would decode
    them into a string, to be encoded again, and so hold an index three times over."""
    return stored.__pydantic_serializer__.to_json(stored)


def _numbered(pages: Mapping[int, PageSummary], trailers: Iterable[CatalogEntry]) -> Iterable[tuple[int, CatalogEntry]]:
    """Each trailer of frozen pages not held, `pages` by number, with the number of the page it is on."""
    for entry in trailers:
        yield next(number for number, page in pages.items() if entry.order <= page.last), entry
