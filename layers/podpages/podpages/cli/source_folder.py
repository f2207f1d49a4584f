"""A folder laid out like the source bucket (`episodes/<show>/<episode>.json` with its companion
transcript `.vtt` or `.srt`, `shows/<show>.json`), as `podpages validate` and `podpages render` read it."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from podpages.catalog.changes import Change, EpisodePut, ShowPut, TranscriptPut, put
from podpages.catalog.companions import Companion
from podpages.catalog.model import Catalog, CatalogEntry, default_episode_guid, default_show, guid_taken
from podpages.cli.workers import Map
from podpages.contract.companion_transcripts import Cue
from podpages.contract.documents import Show
from podpages.contract.serial import serial_problems
from podpages.contract.source_keys import (
    COMPANION_SUFFIXES,
    EPISODES_PREFIX,
    METADATA_SUFFIX,
    SHOWS_PREFIX,
    parse_source_key,
)
from podpages.errors import ContractError, Problem
from podpages.settings import Settings


@dataclass
class SourceFolder:
    catalogs: dict[str, Catalog] = field(default_factory=dict)
    # upload key -> what it publishes as a transcript: an episode JSON's text, or a companion's cues
    transcripts: dict[str, str | tuple[Cue, ...]] = field(default_factory=dict)
    problems: list[tuple[Path, Problem]] = field(default_factory=list)


def upload_key(path: Path) -> str:
    """The source bucket key a file stands for, from the last parts of its path."""
    parts = path.parts
    if len(parts) >= 3 and parts[-3] == EPISODES_PREFIX.rstrip("/"):
        return "/".join(parts[-3:])
    if len(parts) >= 2 and parts[-2] == SHOWS_PREFIX.rstrip("/"):
        return "/".join(parts[-2:])
    return path.name


UPLOAD_SUFFIXES = (METADATA_SUFFIX, *COMPANION_SUFFIXES)


def upload_files(paths: list[Path]) -> Iterator[Path]:
    """The given files, and every upload (.json, .vtt, .srt) below the given folders, in a stable order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(found for found in path.rglob("*") if found.suffix in UPLOAD_SUFFIXES and found.is_file())
        else:
            yield path


def read_change(path: Path) -> EpisodePut | ShowPut | TranscriptPut:
    """Check one file against the contract, its path standing for its key."""
    source = parse_source_key(upload_key(path))
    try:
        with path.open("rb") as file:
            # One byte past the limit is enough to reject a file as too large, and a huge one is never read whole.
            body = file.read(source.max_bytes + 1)
    except OSError as error:
        raise ContractError([Problem("document", f"cannot be read: {error.strerror}")]) from None
    return put(source, body)


def read_source_folder(root: Path, settings: Settings, run: Map = map) -> SourceFolder:
    """Every show's catalog as a from-scratch publish of the folder builds it; bad files are set aside.
    `run` maps the reading of each file, for workers to share."""
    folder = SourceFolder()
    # Each upload becomes its catalog entry, or its companion's record, as soon as it is read and
    # accepted, so that no show holds every upload whole and every entry at once.
    entries: dict[str, list[CatalogEntry]] = {}
    companions: dict[str, list[Companion]] = {}
    guids: dict[str, dict[str, str]] = {}  # show -> guid -> the slug that has it
    documents: dict[str, Show] = {}
    episodes = sorted(path for path in (root / "episodes").glob("*/*") if path.suffix in UPLOAD_SUFFIXES)
    files = [*sorted((root / "shows").glob("*.json")), *episodes]
    for path, change in zip(files, run(_read_or_refuse, files), strict=True):
        if isinstance(change, tuple):  # refused
            folder.problems += [(path, problem) for problem in change]
            continue
        show = change.source.show
        if isinstance(change, ShowPut):
            documents[show] = change.show
            continue
        if isinstance(change, TranscriptPut):
            folder.transcripts[change.source.key] = change.cues
            record = Companion.of(change.source, change.cues, change.sequencer, settings.excerpt_chars)
            companions.setdefault(show, []).append(record)
            continue
        if problems := serial_problems(documents.get(show) or default_show(show), change.episode):
            folder.problems += [(path, problem) for problem in problems]  # show documents are read first
            continue
        if problem := _guid_taken(change, guids):
            folder.problems.append((path, problem))  # the first file in key order keeps it
            continue
        slug = change.source.episode_slug
        entries.setdefault(show, []).append(
            CatalogEntry.of(show, slug, change.episode, change.sequencer, settings.excerpt_chars)
        )
        if change.episode.transcript is not None:
            folder.transcripts[change.source.key] = change.episode.transcript
    for show in sorted(documents.keys() | entries.keys() | companions.keys()):
        folder.catalogs[show] = _first_publish(
            show, documents.get(show), entries.get(show, []), companions.get(show, [])
        )
    return folder


def _read_or_refuse(path: Path) -> Change | tuple[Problem, ...]:
    """The file's change, or what is wrong with it: a result that crosses between processes."""
    try:
        return read_change(path)
    except ContractError as error:
        return tuple(error.problems)


def _guid_taken(change: EpisodePut, guids: dict[str, dict[str, str]]) -> Problem | None:
    """Why `change` cannot be published beside the episodes read before it: another has its GUID."""
    show, slug = change.source.show, change.source.episode_slug
    guid = change.episode.guid or default_episode_guid(show, slug)
    owner = guids.setdefault(show, {}).setdefault(guid, slug)
    return None if owner == slug else guid_taken(guid, owner)


def _first_publish(
    show: str, document: Show | None, entries: list[CatalogEntry], companions: list[Companion]
) -> Catalog:
    """What folding the folder's uploads into an empty catalog builds, in one pass: a folder holds
    each key once, so no upload can replace another, and sorting once replaces an insert per episode."""
    return Catalog(
        show=show,
        document=document,
        episodes=tuple(sorted(entries)),
        companions=tuple(sorted(companions, key=lambda companion: (companion.slug, companion.format))),
    )
