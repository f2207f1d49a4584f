"""Which of a show's frozen pages, and which of its years' listings, a batch of changes needs read
(`catalog.layout`).

A publish reads the index and, of the frozen pages, those from the first one its changes can reach
to the last, so that the catalog it folds them into holds every episode they touch and everything
that depends on them:

- the page that may hold each changed episode (by its slug's hash) or its GUID, and the page a
  back-dated episode falls into;
- the episodes within twice `NEARBY_COUNT` before each change, whose nearby lists it can alter;
- as many pages as removals can take back into the head;
- the pages frozen since the site's sitemap index last changed, whose episodes the head's sitemap
  parts list until that index lists them (`sitemap_parts`).

Each year a change touches has its archive page rendered again: the listing of that year is read
when its episodes reach into the pages before the first read. So is the listing of the year those
pages end in, when the commit cuts frozen pages after them (those read, or the head's oldest
episodes, frozen now), since it writes that listing anew with their episodes. An edit in place is
read `Reach.NEAR` with the listing of the year it is published in alone, as if it kept its year,
and leaves what other years list as it was: an edit amid an old year's pages reads that year's
listing alone, even where its page or the one before reaches into the year before. The fold says
when that proves too narrow (`Catalog.check_listed`, `layout.check_listings`). The index holds the
listing of the year all the frozen pages end in, which is never read apart.

A new newest episode needs none. Any other change to the frozen pages (an edit of an old episode,
at its time or another, its removal, an episode new to them, a companion transcript) needs only the
pages within twice `NEARBY_COUNT` of the places it leaves and takes: the pages are cut by their
content (`feed_archives.cut`), so those after them keep their episodes, and are left out up to the
first that other changes need (the catalog's gap), with the listings of the years the gap begins
and ends in read. A change to the show's document, which every page shows, needs them all.

The index knows where in its page each episode is (the page's slug hashes are in its order), but
not when it was published. So an edit in place is first read `Reach.NEAR` its place, as if it kept
its time, which most edits do: the oldest episode's retitling reads its own page alone. When it
moved, its new neighbours may lie past the pages read, and the fold says so (`NotLoaded`): the
publisher reads again by its pages' bounds (`Reach.PAGES`), then with no gap (`Reach.TAIL`). So it
does when a change moves the cut that begins the gap, or merges two pages before it or splits one,
which would give the gap's pages other numbers (`feed_archives.archive_bounds`).
"""

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum

from podpages.catalog.changes import Change, EpisodePut, EpisodeRemoved, ShowPut, ShowRemoved
from podpages.catalog.feed_archives import by_position, cut, frozen_count
from podpages.catalog.layout import LAYOUT_VERSION, StoredIndex
from podpages.catalog.model import default_episode_guid
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.page_summary import PageSummary
from podpages.catalog.sitemap_parts import indexed_count
from podpages.catalog.stored import hash_places, holds_hash, slug_hash
from podpages.settings import Settings

# Past this feed size the head alone may take more than one sitemap part, and a publish that changes
# how many would renumber every frozen page's part: such shows are read whole.
WINDOWED_FEED_MAX = 20_000


@dataclass(frozen=True)
class Window:
    """What a publish reads of a show's catalog besides its index."""

    first: int  # the first frozen page to read; one past the last when none
    years: frozenset[int] = frozenset()  # the years whose listings to read
    skip: range = range(0)  # frozen pages after the first not to read: the catalog's gap

    def pages(self, frozen: int) -> list[int]:
        """The numbers of the frozen pages to read, of `frozen` in all."""
        return [page for page in range(self.first, frozen + 1) if page not in self.skip]


WHOLE = Window(first=1)


class Reach(Enum):
    """How narrowly a publish reads the frozen pages an edit in place needs: the narrowest first, and
    wider when the catalog read proves too narrow for the fold (`NotLoaded`)."""

    NEAR = "near"  # those within twice NEARBY_COUNT of its episode's place in its page, taken as kept
    PAGES = "pages"  # those within twice NEARBY_COUNT of its page, wherever in the page it falls
    TAIL = "tail"  # those, and every page after them: no gap


def window(index: StoredIndex, changes: Iterable[Change], settings: Settings, reach: Reach = Reach.NEAR) -> Window:
    """What to read for `changes`, as narrowly as `reach` says. A frozen page's slug hashes give
    each episode's place in it; a page's publish times are not in the index, so an edit in place is
    read `NEAR` its place as if it kept its time."""
    frozen = len(index.pages)
    feed_max_items = settings.feed_max_items
    if index.feed_max_items != feed_max_items or feed_max_items > WINDOWED_FEED_MAX or not frozen:
        return WHOLE  # cut for another feed, or not windowed at all
    if index.version != LAYOUT_VERSION:
        return WHOLE  # stored by an earlier podpages: cut again
    bounds = PageBounds.of_counts(page.count for page in index.pages)  # the frozen pages'
    shifting = by_position(feed_max_items)  # an episode inserted or removed shifts the pages after it
    offset = bounds.start(frozen + 1)
    head = {entry.slug: position for position, entry in enumerate(index.episodes, offset)}
    head_orders = [entry.order for entry in index.episodes]

    def before(position: int) -> int:
        """The page holding the first episode whose nearby list a change at `position` can alter."""
        return bounds.page_of(max(0, position - 2 * settings.nearby_count))

    def after(position: int) -> int:
        """The page holding the last episode whose nearby list a change at `position` can alter."""
        return min(frozen, bounds.page_of(position + 2 * settings.nearby_count))

    def spanned(pages: Iterable[int]) -> list[int]:
        """The first and last positions of the pages."""
        return [position for page in pages for position in (bounds.start(page), bounds.stop(page) - 1)]

    def frozen_page(order: tuple[datetime, str]) -> int | None:
        """The frozen page an episode of that order falls into, if any."""
        if order > index.pages[-1].last:
            return None
        return next(number for number, page in enumerate(index.pages, 1) if order <= page.last)

    starts = [frozen + 1]  # the first page of those read on to the last
    in_place: list[int] = []  # positions episodes changed in place may hold: they need no page far after them
    landing: list[int] = []  # frozen pages cut by content that episodes land in, at places the index cannot tell
    years: set[int] = set()
    removals = 0
    later = {entry.slug: entry.order for entry in index.episodes}  # the head after the changes
    grown = [0] * frozen  # how many more episodes each frozen page holds after the changes
    for change in changes:
        if isinstance(change, ShowPut | ShowRemoved):
            return WHOLE
        slug = change.source.episode_slug
        holding = _holding((page.slugs for page in index.pages), slug_hash(slug))
        if reach is not Reach.NEAR or isinstance(change, EpisodeRemoved):
            # The year it was published in, read near its place as if an edit kept it (`years` has
            # an edit's): the fold finds when it did not (`Catalog.check_listed`).
            for number in holding:
                years |= index.pages[number - 1].years.keys()
        if (position := head.get(slug)) is not None:
            starts.append(before(position))
            years.add(index.episodes[position - offset].published.year)
        removals += isinstance(change, EpisodeRemoved)
        if isinstance(change, EpisodePut):
            published = change.episode.published.astimezone(UTC)
            order = (published, slug)
            years.add(published.year)
            guid = change.episode.guid or default_episode_guid(index.show, slug)
            guids = _holding((page.guids for page in index.pages), slug_hash(guid))
            lands = frozen_page(order)
            if lands is not None:
                grown[lands - 1] += 1
            if position is None and holding:
                grown[holding[0] - 1] -= 1
            if lands is None:
                later[slug] = order
            else:
                later.pop(slug, None)
            # The frozen pages it leaves and those it lands in, or whose GUIDs it may take: pages cut
            # by their content after them keep their bounds (the fold checks).
            reached = [*guids, *([lands] if lands is not None else [])]
            if shifting and (lands is None or not holding):  # it shifts every page after its first
                starts += [before(bounds.start(page)) for page in [*holding, *reached]]
            elif reach is Reach.NEAR:
                # The page it lands in is read alone first: most land far from its ends.
                alone = {lands} - set(holding) if lands is not None and not shifting else set()
                landing += alone
                in_place += _places(index.pages, bounds, holding, slug_hash(slug))
                in_place += spanned(set(reached) - set(holding) - alone)
            else:
                in_place += spanned([*holding, *reached])
            if lands is None:
                starts.append(before(offset + bisect_left(head_orders, order)))
        elif isinstance(change, EpisodeRemoved):
            if shifting:
                starts += [before(bounds.start(page)) for page in holding]
            elif reach is Reach.NEAR:
                in_place += _places(index.pages, bounds, holding, slug_hash(slug))
            else:
                in_place += spanned(holding)
            if position is None and holding:
                grown[holding[0] - 1] -= 1
            later.pop(slug, None)
        else:  # a companion transcript, which changes its episode's pages alone
            in_place += _places(index.pages, bounds, holding, slug_hash(slug))
    # The show after the changes, as far as the index tells: each frozen page one episode longer or
    # shorter for each that lands in it or leaves it. Where a change moves a cut, the pages read hold
    # it, or the fold finds the catalog read too narrow.
    head_after = sorted(later, key=later.__getitem__)
    counts_after = [page.count + more for page, more in zip(index.pages, grown, strict=True)]
    bounds_after = PageBounds.of_counts([*counts_after, *cut(head_after, feed_max_items)])
    count_after = bounds_after.start(frozen + 1) + len(head_after)
    if removals:  # they may take frozen pages back into the head
        starts.append(frozen_count(bounds_after, count_after, feed_max_items) + 1)
    # The head's sitemap parts list the pages frozen since the site's sitemap index last changed.
    starts.append(indexed_count(bounds_after, count_after, feed_max_items) + 1)
    rest = max(1, min(starts))
    first, last = rest, rest - 1
    if read := [*landing, *((before(min(in_place)), after(max(in_place))) if in_place else ())]:
        first, last = min(rest, *read), max(read)
    skip = range(last + 1, rest) if reach is not Reach.TAIL and last + 1 < rest else range(0)
    earlier = index.pages[: first - 1]
    unread = [*earlier, *(index.pages[page - 1] for page in skip)]
    if not unread:
        return Window(first)
    # Without pages read, the pages before end where the index's listing does. Changes in place leave
    # what the pages read list of that year as it was, unless they are of that year (`years` has
    # theirs): the fold finds when they do not (`layout.check_listings`).
    if earlier and first <= frozen and (reach is not Reach.NEAR or removals):
        years.add(earlier[-1].last[0].year)
    if skip:
        # The catalog tells anew the listings of the years its gap begins and ends in (`catalog.layout`).
        years |= {min(index.pages[skip.start - 1].years), index.pages[skip.stop - 2].last[0].year}
    # The index holds the listing of the year the frozen pages end in.
    years.discard(index.listed_year)
    return Window(first, frozenset(year for year in years if any(year in page.years for page in unread)), skip)


def _places(pages: Sequence[PageSummary], bounds: PageBounds, numbers: Iterable[int], wanted: str) -> list[int]:
    """The positions in the show, on the frozen pages `numbers`, whose slug hashes are `wanted`."""
    return [
        bounds.start(number) + place for number in numbers for place in hash_places(pages[number - 1].slugs, wanted)
    ]


def _holding(hashes: Iterable[str], wanted: str) -> list[int]:
    """The numbers of the frozen pages whose hashes (of slugs, or of custom GUIDs) hold `wanted`."""
    return [number for number, held in enumerate(hashes, 1) if holds_hash(held, wanted)]
