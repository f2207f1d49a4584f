"""The podcast namespace's (PSP-1) tags, each written from the contract's model of what it carries.

Every writer appends one element to a channel or an item (lxml elements, as feedgen's extensions hand
them over) and sets an attribute only when its value is given. Numbers that may have a fraction, such
as a soundbite's start or an alternate enclosure's bitrate, are printed as plain decimals: `30`, `12.5`,
never `30.0` or `1e-05`. `show_tags` and `episode_tags` write all that a show or an episode sets, and
nothing for a field left at its default.
"""

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from feedgen.util import xml_elem

from podpages.contract.documents import Episode, Show
from podpages.contract.episode_extras import AlternateEnclosure
from podpages.contract.license import License
from podpages.contract.location import Location
from podpages.contract.persons import Person
from podpages.contract.show_extras import Funding, PodrollItem, Txt, UpdateFrequency
from podpages.contract.soundbites import Soundbite
from podpages.excerpt import cut_to_fit

PODCAST_NS = "https://podcastindex.org/namespace/1.0"
CHAPTERS_TYPE = "application/json+chapters"  # what `podcast:chapters` calls the JSON chapters format
TRAILER_TITLE_CHARS = 128  # the namespace's limit, past which aggregators may cut it anyway


@dataclass(frozen=True)
class Trailer:
    """An episode whose type is "trailer", as the channel's `podcast:trailer` names it."""

    title: str
    pubdate: str  # RFC 2822, as the item's pubDate
    url: str
    length: int
    type: str
    season: int | None = None


def decimal_text(value: float) -> str:
    """A number as xs:decimal writes it, at its shortest: `30`, `12.5`, `0.00001`."""
    if value.is_integer():
        return str(int(value))
    return format(Decimal(repr(value)), "f")


def element(parent: Any, name: str, text: str | None = None, **attributes: str | None) -> Any:
    """`podcast:<name>` under `parent`, with the attributes that have a value, in the order given."""
    # Given at once: set one at a time, attributes took as long again as the element.
    given = {attribute: value for attribute, value in attributes.items() if value is not None}
    node = xml_elem(f"{{{PODCAST_NS}}}{name}", parent, attrib=given)
    if text is not None:
        node.text = text
    return node


# Item and channel


def person(parent: Any, who: Person) -> None:
    element(parent, "person", who.name, role=who.role, group=who.group, img=who.img, href=who.href)


def location(parent: Any, where: Location) -> None:
    element(parent, "location", where.name, geo=where.geo, osm=where.osm)


def license_(parent: Any, terms: License) -> None:  # PEP 8's trailing underscore: `license` is a builtin
    element(parent, "license", terms.name, url=terms.url)


# Item


@dataclass(frozen=True)
class TranscriptLink:
    """One format of an episode's transcript: `rel="captions"` marks the timed ones players show as captions."""

    url: str
    type: str
    language: str | None = None
    rel: str | None = None


def transcript(parent: Any, link: TranscriptLink) -> None:
    element(parent, "transcript", url=link.url, type=link.type, language=link.language, rel=link.rel)


def season(parent: Any, number: int) -> None:
    element(parent, "season", str(number))


def episode_number(parent: Any, number: int) -> None:
    element(parent, "episode", str(number))


def chapters(parent: Any, url: str) -> None:
    element(parent, "chapters", url=url, type=CHAPTERS_TYPE)


def soundbite(parent: Any, bite: Soundbite) -> None:
    element(parent, "soundbite", bite.title, startTime=decimal_text(bite.start), duration=decimal_text(bite.duration))


def alternate_enclosure(parent: Any, enclosure: AlternateEnclosure) -> None:
    node = element(
        parent,
        "alternateEnclosure",
        type=enclosure.type,
        length=str(enclosure.length),
        bitrate=None if enclosure.bitrate is None else decimal_text(enclosure.bitrate),
        title=enclosure.title,
        default="true" if enclosure.default else None,
    )
    element(node, "source", uri=enclosure.url)


# Channel


def guid(parent: Any, value: str) -> None:
    element(parent, "guid", value)


def locked(parent: Any, value: bool, owner: str | None) -> None:
    element(parent, "locked", "yes" if value else "no", owner=owner)


def medium(parent: Any, value: str) -> None:
    element(parent, "medium", value)


def funding(parent: Any, link: Funding) -> None:
    element(parent, "funding", link.text, url=link.url)


def update_frequency(parent: Any, frequency: UpdateFrequency) -> None:
    complete = "true" if frequency.complete else None
    element(parent, "updateFrequency", frequency.text, rrule=frequency.rrule, complete=complete)


def txt(parent: Any, record: Txt) -> None:
    element(parent, "txt", record.value, purpose=record.purpose)


def podroll(parent: Any, shows: tuple[PodrollItem, ...]) -> None:
    node = element(parent, "podroll")
    for show in shows:
        element(node, "remoteItem", feedGuid=show.feed_guid, feedUrl=show.feed_url, title=show.title)


def trailer(parent: Any, clip: Trailer) -> None:
    title = clip.title if len(clip.title) <= TRAILER_TITLE_CHARS else cut_to_fit(clip.title, TRAILER_TITLE_CHARS)
    element(
        parent,
        "trailer",
        title,
        pubdate=clip.pubdate,
        url=clip.url,
        length=str(clip.length),
        type=clip.type,
        season=None if clip.season is None else str(clip.season),
    )


# All of a document


def show_tags(channel: Any, show: Show) -> None:
    """The channel's tags for the v2 fields `show` sets; a v1 show sets none of them."""
    _credits(channel, show.persons, show.location, show.license)
    if show.medium != "podcast":  # the namespace's default, which a v1 feed leaves unsaid
        medium(channel, show.medium)
    if show.update_frequency:
        update_frequency(channel, show.update_frequency)
    for link in show.funding or ():
        funding(channel, link)
    for record in show.txt or ():
        txt(channel, record)
    if show.podroll:
        podroll(channel, show.podroll)


def episode_tags(item: Any, episode: Episode, chapters_url: str | None) -> None:
    """The item's tags for what `episode` sets. Its persons replace the show's, which the channel
    carries as the default credits, so an episode with none repeats nobody."""
    if episode.season:
        season(item, episode.season)
    if episode.episode_number:
        episode_number(item, episode.episode_number)
    if chapters_url:
        chapters(item, chapters_url)
    for bite in episode.soundbites or ():
        soundbite(item, bite)
    _credits(item, episode.persons, episode.location, episode.license)
    for enclosure in episode.alternate_enclosures or ():
        alternate_enclosure(item, enclosure)


def _credits(parent: Any, persons: tuple[Person, ...] | None, where: Location | None, terms: License | None) -> None:
    """Who made it, where, and under what license: the tags a channel and an item share."""
    for who in persons or ():
        person(parent, who)
    if where:
        location(parent, where)
    if terms:
        license_(parent, terms)
