"""An episode's full transcript as a page of its own, `/<show>/<episode>/transcript/`: one paragraph
to each speaker's turn, each with an anchor and a link into the audio at the moment it starts."""

from dataclasses import dataclass

from podpages import site_paths
from podpages.catalog.model import Catalog, CatalogEntry
from podpages.contract.companion_transcripts import Cue
from podpages.contract.transcript_paragraphs import paragraphs
from podpages.durations import millisecond_text
from podpages.render import site_objects
from podpages.render.pages import common_context
from podpages.render.site_objects import SiteObject
from podpages.settings import Settings
from podpages.templating import render

HOUR = 3600  # seconds; past it, every time on the page shows hours, so that they share one form


@dataclass(frozen=True)
class Passage:
    """A paragraph as the page shows it: where to link to it, and when in the audio it starts."""

    anchor: str
    seconds: float
    speaker: str | None
    text: str


def transcript_page(catalog: Catalog, entry: CatalogEntry, cues: tuple[Cue, ...], settings: Settings) -> SiteObject:
    path = site_paths.transcript_page(catalog.show, entry.slug)
    show_title, title = catalog.show_document.title, entry.episode.title
    passages = _passages(cues)
    text = render(
        "transcript.html",
        **common_context(catalog, settings),
        heading=f"{show_title}: {title} — transcript",
        social_title=f"{title} — transcript",
        og_type="article",
        entry=entry,
        url=settings.site_url + path,
        description=f"Full transcript of {title}, an episode of {show_title}.",
        image=entry.episode.image or catalog.show_document.image,
        structured_data=None,
        passages=passages,
        with_hours=bool(passages) and passages[-1].seconds >= HOUR,
        media_fragment=media_fragment,
    )
    return site_objects.html(path, text)


def _passages(cues: tuple[Cue, ...]) -> list[Passage]:
    """The paragraphs with anchors that stay unique when two start in the same second: `t65s`, `t65s-2`."""
    passages: list[Passage] = []
    taken: set[str] = set()
    for paragraph in paragraphs(cues):
        base = anchor = moment_anchor(paragraph.start_ms)
        repeat = 1
        while anchor in taken:
            repeat += 1
            anchor = f"{base}-{repeat}"
        taken.add(anchor)
        passages.append(Passage(anchor, paragraph.start_ms / 1000, paragraph.speaker, paragraph.text))
    return passages


def moment_anchor(start_ms: int) -> str:
    """An id to read in an address: `t45s`, `t2m05s`, `t1h02m03s`. It begins with a letter, as CSS
    selectors want, and counts whole seconds, so a link made by hand from a player's clock finds it."""
    minutes, seconds = divmod(start_ms // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"t{hours}h{minutes:02d}m{seconds:02d}s"
    if minutes:
        return f"t{minutes}m{seconds:02d}s"
    return f"t{seconds}s"


def media_fragment(seconds: float) -> str:
    """The temporal media fragment that starts the audio at `seconds`: `#t=65.25`, in at most three decimals."""
    return f"#t={millisecond_text(seconds)}"
