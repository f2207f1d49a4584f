"""A show's catalog: all that its pages, feed, listings and nearby lists need.

It is stored in the source bucket (`catalog.layout`), so a publish never reads the show's other
episode files. Full transcripts stay out of it; each entry keeps only its excerpt.

A catalog in memory may hold a window of the show: every episode after its first frozen pages
(`earlier`), which it knows only by their summaries and by the listings of the years it read
(`earlier_listed`). A window may also leave out a run of frozen pages after some it holds (`gap`),
known the same way: an edit of an old episode, which keeps its place, needs its own page and not
the hundreds after it. A publish reads the window its changes need (`catalog.window`); asking it
for what lies outside raises `NotLoaded`.
"""

import hashlib
import uuid
from bisect import insort
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from functools import cached_property, lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter

from podpages.catalog.changes import (
    Change,
    EpisodePut,
    EpisodeRemoved,
    ShowPut,
    ShowRemoved,
    TranscriptPut,
    TranscriptRemoved,
)
from podpages.catalog.companions import Companion, preferred
from podpages.catalog.listed_episode import ListedEpisode
from podpages.catalog.nearby import nearby
from podpages.catalog.page_bounds import PageBounds
from podpages.catalog.page_summary import PageSummary, YearCount
from podpages.catalog.sequencers import is_later
from podpages.catalog.show_notes import each_notes_html, notes_html
from podpages.catalog.spooled_text import LongParagraphs, LongText, paragraphs_of, text_of
from podpages.contract.chapters import Chapter
from podpages.contract.documents import Episode, Show
from podpages.contract.episode_extras import AlternateEnclosure
from podpages.contract.field_sets import SharedFieldSets
from podpages.contract.fields import since_v2
from podpages.contract.persons import Person
from podpages.contract.serial import serial_problems
from podpages.contract.soundbites import Soundbite
from podpages.contract.source_keys import Kind, SourceKey
from podpages.errors import ContractError, PodpagesError, Problem
from podpages.excerpt import excerpt

# Default episode GUIDs are UUIDv5 names of "<show>/<episode>" in this namespace, so they
# never depend on a URL that may move.
EPISODE_GUIDS = uuid.uuid5(uuid.NAMESPACE_URL, "https://podpages.dev/episode-guid")


def default_episode_guid(show: str, episode: str) -> str:
    return str(uuid.uuid5(EPISODE_GUIDS, f"{show}/{episode}"))


def guid_taken(guid: str, owner: str) -> Problem:
    """Why an episode cannot have the GUID another episode of its show has: apps would merge the two."""
    return Problem("guid", f"{guid!r} is already the guid of episode {owner!r}")


# Apple requires a category in every feed; until the publisher names one, the broadest.
DEFAULT_CATEGORY = "Society & Culture"


def default_show(show: str) -> Show:
    """The document a show has until its publisher uploads one: complete enough
    that the show's feed carries every tag Apple requires."""
    return Show(title=show, description=f"Episodes of {show}.", categories=(DEFAULT_CATEGORY,), author=show)


# An entry keeps its episode's chapters, and its other lists, as JSON text, parsed only while a page
# or a feed shows them: at the contract's maxima an episode's 500 chapters took 629 KB parsed, and
# its persons, soundbites, enclosures and keywords 100 KB, in each of the 1,000 or more entries a
# publish reads.
CHAPTERS = TypeAdapter(tuple[Chapter, ...])


# An episode's page and its chapters file are rendered one after the other, and the feed item beside
# them in a publish: each asks for the chapters, which took a sixth of the page's time to parse. The
# last few parsed are kept, by their text, so that none is parsed twice there and no catalog holds
# its episodes' chapters parsed.
PARSED_CHAPTERS_KEPT = 8


@lru_cache(maxsize=PARSED_CHAPTERS_KEPT)
def parsed_chapters(text: str) -> tuple[Chapter, ...]:
    """Chapters as `_chapters_json` writes them."""
    return CHAPTERS.validate_json(text)


def _chapters_json(chapters: tuple[Chapter, ...] | None) -> str | None:
    return CHAPTERS.dump_json(chapters, exclude_defaults=True).decode() if chapters else None


class EpisodeLists(BaseModel):
    """The lists of an episode besides its chapters, which its entry keeps as text (`lists_json`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    keywords: tuple[str, ...] = ()
    persons: tuple[Person, ...] | None = None
    soundbites: tuple[Soundbite, ...] | None = None
    alternate_enclosures: tuple[AlternateEnclosure, ...] | None = None

    @classmethod
    def json_of(cls, episode: Episode) -> str | None:
        if not any(getattr(episode, name) for name in cls.model_fields):
            return None
        return cls(**{name: getattr(episode, name) for name in cls.model_fields}).model_dump_json(exclude_defaults=True)


NO_LISTS = dict(EpisodeLists())  # what `CatalogEntry.kept` leaves of them in the episode


class NotLoaded(PodpagesError):
    """A question about episodes in frozen pages that the catalog's window does not hold."""


def transcript_digest(text: str) -> str:
    """Sixteen hex digits of the text's SHA-256."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class CatalogEntry(SharedFieldSets):
    """One published episode, as the show's listings see it."""

    __slots__ = ("_published",)  # `published`, once asked for
    model_config = ConfigDict(frozen=True, extra="forbid")

    slug: str
    guid: str
    episode: Episode  # as `kept` leaves it
    excerpt: LongParagraphs = ()  # set aside with the long texts below
    transcript: bool = False  # a transcript file is published beside the page
    # The JSON's transcript text's digest: a re-upload with the same text writes no transcript file.
    # None for an entry stored before it was kept, whose file is then written again.
    transcript_digest: str | None = since_v2(None)
    sequencer: str | None = None
    # The long texts, which a publish sets aside on disk while it holds the entry (`spooled_text`):
    notes_html: LongText = since_v2(None)  # the show notes, rendered once when the upload was folded
    chapters_json: LongText = since_v2(None)  # the episode's chapters, as `chapters` reads them
    lists_json: LongText = since_v2(None)  # its other lists, as `episode_in_full` reads them

    def model_post_init(self, context: Any, /) -> None:
        """An entry stored before its episode's lists were kept apart has them in its episode: they
        move, once, as it is made. A validator would be run again on each entry a catalog is made
        of: 20 ms of 10,000 entries, each time."""
        super().model_post_init(context)
        episode = self.episode
        if episode.chapters or any(getattr(episode, name) for name in NO_LISTS):
            object.__setattr__(self, "chapters_json", self.chapters_json or _chapters_json(episode.chapters))
            object.__setattr__(self, "lists_json", EpisodeLists.json_of(episode))
            object.__setattr__(self, "episode", self.kept(episode))

    def chapters(self) -> tuple[Chapter, ...]:
        """The episode's chapters, parsed when asked for, so that no entry holds them parsed (`parsed_chapters`)."""
        return parsed_chapters(str(self.chapters_json)) if self.chapters_json else ()

    def episode_in_full(self) -> Episode:
        """The episode with its lists (but its chapters, which `chapters` gives), parsed anew at each
        call: what a page, its JSON-LD and a feed item show."""
        if not self.lists_json:
            return self.episode
        return self.episode.model_copy(update=dict(EpisodeLists.model_validate_json(str(self.lists_json))))

    def notes(self) -> str | None:
        """The show notes, as HTML."""
        return text_of(self.notes_html)

    @property
    def title(self) -> str:
        return self.episode.title

    @property
    def published(self) -> datetime:
        """The publish time, in UTC: made once, and kept in a slot of its own, since a property cached
        in the entry's dict of fields would grow that dict by 192 bytes."""
        try:
            kept: datetime = object.__getattribute__(self, "_published")
            return kept
        except AttributeError:
            published = self.episode.published.astimezone(UTC)
            object.__setattr__(self, "_published", published)
            return published

    @property
    def duration(self) -> timedelta:
        return self.episode.duration

    def listed(self) -> ListedEpisode:
        """The entry as a year's listing keeps it: what `episode-list.html` shows of it."""
        return ListedEpisode(slug=self.slug, title=self.title, published=self.published, duration=self.duration)

    @property
    def order(self) -> tuple[datetime, str]:
        """Publish order; ties are broken by slug."""
        return self.published, self.slug

    def __lt__(self, other: "CatalogEntry") -> bool:
        return self.order < other.order

    @classmethod
    def of(
        cls,
        show: str,
        slug: str,
        episode: Episode,
        sequencer: str | None,
        excerpt_chars: int,
        rendered_notes: str | None = None,
    ) -> "CatalogEntry":
        """The entry an upload makes: its transcript leaves only an excerpt behind, its notes their
        HTML, which `rendered_notes` may already hold (`each_of`)."""
        if episode.notes and rendered_notes is None:
            rendered_notes = notes_html(episode.notes)
        return cls(
            slug=slug,
            guid=episode.guid or default_episode_guid(show, slug),
            episode=cls.kept(episode),
            excerpt=tuple(excerpt(episode.transcript, excerpt_chars)) if episode.transcript else (),
            transcript=episode.transcript is not None,
            transcript_digest=transcript_digest(episode.transcript) if episode.transcript else None,
            sequencer=sequencer,
            notes_html=rendered_notes,
            chapters_json=_chapters_json(episode.chapters),
            lists_json=EpisodeLists.json_of(episode),
        )

    @classmethod
    def each_of(cls, puts: Sequence[EpisodePut], excerpt_chars: int) -> list["CatalogEntry"]:
        """The entry each upload makes, as `of` makes it, with the notes of all of them rendered
        first, together (`each_notes_html`)."""
        notes = iter(each_notes_html([put.episode.notes for put in puts if put.episode.notes]))
        return [
            cls.of(
                put.source.show,
                put.source.episode_slug,
                put.episode,
                put.sequencer,
                excerpt_chars,
                next(notes) if put.episode.notes else None,
            )
            for put in puts
        ]

    @staticmethod
    def kept(episode: Episode) -> Episode:
        """The episode as the catalog keeps it: the long texts are published from what they leave,
        and its lists are kept apart."""
        return episode.model_copy(update={"transcript": None, "notes": None, "chapters": None} | NO_LISTS)

    def made_from(self, episode: Episode) -> bool:
        """Whether this entry holds `episode` as `of` keeps it."""
        return (
            self.episode == self.kept(episode)
            and self.chapters_json == _chapters_json(episode.chapters)
            and self.lists_json == EpisodeLists.json_of(episode)
        )

    def content(self) -> "CatalogEntry":
        """The entry without its bookkeeping, to tell whether a page must change: no page shows the
        transcript past its excerpt."""
        return self.model_copy(update={"sequencer": None, "transcript_digest": None})

    def transcript_file_differs(self, before: "CatalogEntry") -> bool:
        """Whether the transcript file the JSON's text makes may differ from the one `before` made:
        written, changed or gone. An entry stored without its digest may differ."""
        if not (before.transcript or self.transcript):
            return False
        return before.transcript_digest is None or before.transcript_digest != self.transcript_digest


class Catalog(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: Literal[1] = 1  # catalog.stored.CATALOG_VERSION, which the light readers check
    show: str
    document: Show | None = None
    document_sequencer: str | None = None
    episodes: tuple[CatalogEntry, ...] = ()  # in publish order, oldest first
    companions: tuple[Companion, ...] = since_v2(())  # companion transcripts, by slug and format
    earlier: tuple[PageSummary, ...] = ()  # frozen pages before `episodes`, not held: see the module
    earlier_trailers: tuple[CatalogEntry, ...] = ()  # the trailers among them, which every feed names
    # The digest of the listing of each year of the frozen pages before their last (`catalog.layout`).
    earlier_years: dict[int, str] = {}
    earlier_listed: dict[int, tuple[ListedEpisode, ...]] = {}  # of the years read: their episodes in `earlier`
    # Frozen pages not held between the held ones: the first `gap_at` episodes held come before them,
    # and the first of them is page `gap_page` (pages merged or split before it would renumber it).
    gap: tuple[PageSummary, ...] = ()
    gap_at: int = 0
    gap_page: int = 0
    gap_trailers: tuple[CatalogEntry, ...] = ()  # the trailers among them
    gap_listed: dict[int, tuple[ListedEpisode, ...]] = {}  # of the years read: their episodes in `gap`

    @property
    def offset(self) -> int:
        """How many episodes come before the ones held."""
        return self._offset

    @cached_property
    def _offset(self) -> int:
        # Asked dozens of times a publish, of a sum over up to 1,000 frozen pages.
        return sum(page.count for page in self.earlier)

    @cached_property
    def archive_bounds(self) -> dict[int, PageBounds]:
        """`feed_archives.archive_bounds` of the catalog, by feed size, once worked out: it is frozen."""
        return {}

    @cached_property
    def _gap_count(self) -> int:
        return sum(page.count for page in self.gap)

    @property
    def count(self) -> int:
        """How many episodes the show has."""
        return self.offset + len(self.episodes) + self._gap_count

    def held(self, position: int) -> int:
        """Where the episode at `position` in the whole show is in `episodes`."""
        index = position - self.offset
        if self.gap and index >= self.gap_at:
            index -= self._gap_count
            if index < self.gap_at:
                raise NotLoaded(f"episode {position} of {self.show!r} is in a frozen page not read")
        if index < 0:
            raise NotLoaded(f"episode {position} of {self.show!r} is in a frozen page not read")
        return index

    def unheld(self, page: int) -> PageSummary | None:
        """The summary of frozen page `page`, if it is not held."""
        if page <= len(self.earlier):
            return self.earlier[page - 1]
        first = self.gap_page
        return self.gap[page - first] if self.gap and first <= page < first + len(self.gap) else None

    def _beyond_held(self, position: int, distance: int) -> bool:
        """Whether the episodes within `distance` of the one held at `position` reach the gap, or the
        frozen pages before those held."""
        if self.earlier and position - distance < 0:
            return True
        if not self.gap:
            return False
        return position + distance >= self.gap_at if position < self.gap_at else position - distance < self.gap_at

    def around(self, position: int, distance: int) -> tuple[CatalogEntry, ...]:
        """The held episodes within `distance` of the one held at `position`, itself among them."""
        if self._beyond_held(position, distance):
            raise NotLoaded(f"episodes near {self.episodes[position].slug!r} of {self.show!r} are not read")
        return self.episodes[max(0, position - distance) : position + distance + 1]

    @property
    def show_document(self) -> Show:
        return self.document or default_show(self.show)

    @property
    def is_empty(self) -> bool:
        """Nothing to publish: no document and no episodes."""
        return self.document is None and not self.count

    @property
    def keeps_nothing(self) -> bool:
        """Nothing to publish, nor any companion transcript waiting for its episode: no need to store it."""
        return self.is_empty and not self.companions

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {entry.slug: position for position, entry in enumerate(self.episodes)}

    def position(self, slug: str) -> int | None:
        return self._positions.get(slug)

    @cached_property
    def _slugs_by_guid(self) -> dict[str, str]:
        return {entry.guid: entry.slug for entry in self.episodes}

    def guid_owner(self, guid: str) -> str | None:
        """The slug of the episode whose GUID this is, if any: podcast apps merge two items with one."""
        return self._slugs_by_guid.get(guid)

    def entry(self, slug: str) -> CatalogEntry | None:
        position = self.position(slug)
        return None if position is None else self.episodes[position]

    @cached_property
    def _companions_by_slug(self) -> dict[str, Companion]:
        """The published companion of each episode that has any, found in one pass."""
        found: dict[str, Companion] = {}
        for companion in self.companions:
            held = found.get(companion.slug)
            found[companion.slug] = preferred(held, companion) if held else companion
        return found

    def companion(self, slug: str) -> Companion | None:
        """The companion transcript published for the episode, if it has one."""
        return self._companions_by_slug.get(slug)

    def excerpt(self, entry: CatalogEntry) -> tuple[str, ...]:
        """The transcript excerpt an episode's page shows: its companion's text wins over the JSON's."""
        companion = self.companion(entry.slug)
        return companion.excerpt if companion else paragraphs_of(entry.excerpt)

    def nearby(self, slug: str, count: int) -> list[CatalogEntry]:
        position = self.position(slug)
        if position is None:
            return []
        if self._beyond_held(position, count):
            raise NotLoaded(f"episodes near {slug!r} of {self.show!r} are not read")
        return nearby(self.episodes, position, count)

    def newest(self, count: int) -> list[CatalogEntry]:
        after_gap = len(self.episodes) - (self.gap_at if self.gap else 0)
        if (self.earlier or self.gap) and not 0 < count <= after_gap:
            raise NotLoaded(f"the newest {count or 'all'} of {self.show!r} reach into its frozen pages")
        return list(reversed(self.episodes[-count:] if count else self.episodes))

    def trailers(self) -> list[CatalogEntry]:
        """The show's trailers, in publish order."""
        held = [entry for entry in self.episodes if entry.episode.episode_type == "trailer"]
        if not self.gap:
            return [*self.earlier_trailers, *held]
        before = sum(1 for entry in self.episodes[: self.gap_at] if entry.episode.episode_type == "trailer")
        return [*self.earlier_trailers, *held[:before], *self.gap_trailers, *held[before:]]

    @cached_property
    def _by_year(self) -> dict[int, list[CatalogEntry]]:
        """Each year's episodes, newest first, the newest year first: every listing asks for them."""
        years: dict[int, list[CatalogEntry]] = {}
        for entry in reversed(self.episodes):
            years.setdefault(entry.published.year, []).append(entry)
        return dict(sorted(years.items(), reverse=True))

    @cached_property
    def _earlier_by_year(self) -> dict[int, YearCount]:
        """Each year's count and newest publish time over the frozen pages not held, in one pass:
        a show of 100,000 episodes over many years would otherwise scan its 1,000 pages per year.
        The sums are plain numbers until the end: a YearCount made for each page's year took 3.8 ms
        a pass over 1,011 pages, where this takes 1.5 ms."""
        counts: dict[int, int] = {}
        latest: dict[int, datetime] = {}
        for page in (*self.earlier, *self.gap):
            for year, on_page in page.years.items():
                counts[year] = counts.get(year, 0) + on_page.count
                latest[year] = max(latest.get(year, on_page.latest), on_page.latest)
        return {year: YearCount(count=count, latest=latest[year]) for year, count in counts.items()}

    def years(self) -> list[int]:
        """Years that have episodes, newest first."""
        return sorted({*self._by_year, *self._earlier_by_year}, reverse=True)

    def in_year(self, year: int) -> list[CatalogEntry | ListedEpisode]:
        """That year's episodes, newest first: those held, and those of the frozen pages not held,
        from the year's listing."""
        held = self._by_year.get(year, [])
        if year not in self._earlier_by_year:
            return list(held)
        unheld = [episode for listing in self._unheld_listings(year) for episode in listing]
        if not self.gap:
            return [*held, *reversed(unheld)]
        return sorted([*held, *unheld], key=lambda episode: episode.order, reverse=True)

    def check_listed(self, years: Iterable[int]) -> None:
        """NotLoaded unless the catalog can list each year's episodes (`in_year`): it read the
        listings of those years that the frozen pages it does not hold have."""
        for year in years:
            if year in self._earlier_by_year:
                self._unheld_listings(year)

    def _unheld_listings(self, year: int) -> list[tuple[ListedEpisode, ...]]:
        """The listings of `year` of the frozen pages not held: those before the episodes held, and
        those of the gap."""
        listings = []
        for pages, listed in ((self.earlier, self.earlier_listed), (self.gap, self.gap_listed)):
            if any(year in page.years for page in pages):
                if year not in listed:
                    raise NotLoaded(f"the listing of {year} of {self.show!r} was not read")
                listings.append(listed[year])
        return listings

    def year_count(self, year: int) -> int:
        """How many episodes the year has."""
        earlier = self._earlier_by_year.get(year)
        return (earlier.count if earlier else 0) + len(self._by_year.get(year, []))

    def latest_in_year(self, year: int) -> datetime:
        """When the year's newest episode was published."""
        held = self._by_year.get(year)
        unheld = self._earlier_by_year.get(year)
        if held and (unheld is None or held[0].published >= unheld.latest):
            return held[0].published
        assert unheld is not None
        return unheld.latest

    def apply(self, change: Change, excerpt_chars: int) -> "Catalog":
        """The catalog after `change`, or this very catalog when the change is a no-op: an event
        no later than the state it would replace, or the removal of what is not there."""
        match change:
            case ShowPut(show=document, sequencer=sequencer) if is_later(sequencer, self.document_sequencer):
                if self.earlier or self.gap:
                    raise NotLoaded(f"a new document of {self.show!r} is checked against every episode")
                if unnumbered := [entry.slug for entry in self.episodes if serial_problems(document, entry.episode)]:
                    listed = ", ".join(repr(slug) for slug in unnumbered[:5]) + (" …" if len(unnumbered) > 5 else "")
                    message = f"is serial, but {len(unnumbered)} published episodes have no episode_number: {listed}"
                    raise ContractError([Problem("type", message)])
                return self._replace(document=document, document_sequencer=sequencer)
            case ShowRemoved(sequencer=sequencer) if is_later(sequencer, self.document_sequencer):
                return self._replace(document=None, document_sequencer=None)
            case EpisodePut(source=source, episode=episode, sequencer=sequencer):
                return self._put(source.episode_slug, episode, sequencer, excerpt_chars)
            case TranscriptPut(source=source, cues=cues, sequencer=sequencer):
                return self._put_companion(Companion.of(source, cues, sequencer, excerpt_chars))
            case TranscriptRemoved(source=source, sequencer=sequencer):
                return self._remove_companion(source.episode_slug, source.format, sequencer)
            case EpisodeRemoved(source=source, sequencer=sequencer):
                current = self.entry(source.episode_slug)
                if current is None or not is_later(sequencer, current.sequencer):
                    return self
                episodes = tuple(entry for entry in self.episodes if entry.slug != source.episode)
                if self.gap and self._before_gap(current.order):
                    return self._replace(episodes=episodes, gap_at=self._held_before_gap(self.gap_at - 1))
                return self._replace(episodes=episodes)
        return self

    def _put(self, slug: str, episode: Episode, sequencer: str | None, excerpt_chars: int) -> "Catalog":
        current = self.entry(slug)
        if current is not None and not is_later(sequencer, current.sequencer):
            return self
        if problems := serial_problems(self.show_document, episode):
            raise ContractError(problems)
        entry = CatalogEntry.of(self.show, slug, episode, sequencer, excerpt_chars)
        if self.earlier and entry.order <= self.earlier[-1].last:
            raise NotLoaded(f"{slug!r} of {self.show!r} belongs in its frozen pages, which are not read")
        gap_at = self._gap_at_after(slug, current, entry) if self.gap else 0
        if current is not None and current.guid != entry.guid:
            raise ContractError([Problem("guid", f"was {current.guid!r} at first publish and cannot change")])
        if (owner := self.guid_owner(entry.guid)) not in (None, slug):
            raise ContractError([guid_taken(entry.guid, owner)])
        episodes = [other for other in self.episodes if other.slug != slug]
        insort(episodes, entry)
        return self._replace(episodes=tuple(episodes), **({"gap_at": gap_at} if self.gap else {}))

    def _before_gap(self, order: tuple[datetime, str]) -> bool:
        return order <= self.episodes[self.gap_at - 1].order

    def _gap_at_after(self, slug: str, current: "CatalogEntry | None", entry: "CatalogEntry") -> int:
        """How many held episodes come before the gap once `entry` takes the place of `current`:
        the pages are cut by their content, so one more or fewer before the gap leaves its pages as
        they are (`feed_archives.archive_bounds` says when it does not). NotLoaded when the entry
        falls within the gap, as far as the catalog can tell."""
        before, after = self._before_gap(entry.order), entry.order > self.gap[-1].last
        if not before and not after:
            raise NotLoaded(f"{slug!r} of {self.show!r} belongs in frozen pages not read")
        return self._held_before_gap(self.gap_at + before - (current is not None and self._before_gap(current.order)))

    def _held_before_gap(self, gap_at: int) -> int:
        """`gap_at`, unless it leaves no held episode before the gap to tell where it begins."""
        if not gap_at:
            raise NotLoaded(f"a change to {self.show!r} leaves no episode it holds before its frozen pages not read")
        return gap_at

    def holds(self, source: SourceKey) -> bool:
        """Whether the catalog holds what an upload of `source` publishes: the show's document, an
        episode, or a companion transcript."""
        if source.kind is Kind.SHOW:
            return self.document is not None
        if source.kind is Kind.TRANSCRIPT:
            return self._companion_record(source.episode_slug, source.format) is not None
        return self.entry(source.episode_slug) is not None

    def _companion_record(self, slug: str, format: str) -> Companion | None:
        return next((c for c in self.companions if c.slug == slug and c.format == format), None)

    def _put_companion(self, record: Companion) -> "Catalog":
        current = self._companion_record(record.slug, record.format)
        if current is not None and not is_later(record.sequencer, current.sequencer):
            return self
        others = [companion for companion in self.companions if companion is not current]
        return self._replace(companions=tuple(sorted([*others, record], key=lambda c: (c.slug, c.format))))

    def _remove_companion(self, slug: str, format: str, sequencer: str | None) -> "Catalog":
        current = self._companion_record(slug, format)
        if current is None or not is_later(sequencer, current.sequencer):
            return self
        return self._replace(companions=tuple(companion for companion in self.companions if companion is not current))

    def _replace(self, **fields: Any) -> "Catalog":
        # A new instance of the fields alone, not model_copy: the copy would carry what is cached over.
        return Catalog(**({name: getattr(self, name) for name in Catalog.model_fields} | fields))
