"""A folder laid out like the source bucket (`episodes/<show>/<episode>.json` with its companion
transcript `.vtt` or `.srt`, `shows/<show>.json`), as `podpages validate` and `podpages render` read it."""

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path, PurePath

from podpages.catalog.changes import EpisodePut, ShowPut, TranscriptPut, put
from podpages.catalog.companions import Companion
from podpages.catalog.model import Catalog, CatalogEntry, default_show, guid_taken
from podpages.catalog.spool import Spool
from podpages.catalog.spooled_cues import SpooledCues, pickled
from podpages.cli.progress import progress_bar
from podpages.cli.shared_runs import RunMap, in_runs
from podpages.contract.companion_transcripts import Cue
from podpages.contract.documents import Show, transcript_of
from podpages.contract.serial import serial_problems
from podpages.contract.source_keys import (
    COMPANION_SUFFIXES,
    EPISODES_PREFIX,
    MAX_DOCUMENT_BYTES,
    METADATA_SUFFIX,
    SHOWS_PREFIX,
    SourceKey,
    parse_source_key,
)
from podpages.errors import ContractError, Problem
from podpages.settings import Settings

# The characters of episode JSONs' transcripts a render holds: every one of a show of 10,000 episodes
# (37 MB), where reading each again from its file took a sixth of the time its episode's page took.
# A folder's files share it evenly (`held_share`).
HELD_TRANSCRIPTS = 64 * 2**20


class Transcripts(Mapping[str, str | tuple[Cue, ...]]):
    """Upload key -> what it publishes as a transcript: a companion's cues, or an episode JSON's text.
    Texts of at most their file's share of HELD_TRANSCRIPTS are held; the others are read again from
    their files when asked for, so that no one process holds every transcript of a large show (373 MB
    of the 1.2 GB a render of 100,000 episodes peaked at). Cues are never held: each companion's
    are set down pickled in a spool, and read back from it when asked for."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}  # episode JSONs' transcripts, those held
        self.episode_files: dict[str, str] = {}  # the paths of the episode uploads that hold the others
        self.companions: dict[str, SpooledCues] = {}  # each companion's cues, in the one spool

    @cached_property
    def _spool(self) -> Spool:
        return Spool("the companion transcripts read")

    def add_cues(self, key: str, cues: bytes) -> None:
        """A companion's cues, pickled, set down in the spool. Held, the cues of 1,000 episodes with an
        hour's companion each took a render to a peak of 431 MB, growing 0.4 MB an episode."""
        self.companions[key] = SpooledCues(self._spool, cues)

    def add_text(self, key: str, text: str | None, path: str) -> None:
        """An episode JSON's transcript: held if given, else read again from `path` when asked for."""
        if text is None:
            self.episode_files[key] = path
        else:
            self.texts[key] = text

    def __getitem__(self, key: str) -> str | tuple[Cue, ...]:
        if key in self.companions:
            return self.companions[key].read()
        if key in self.texts:
            return self.texts[key]
        try:
            # Through its descriptor, as it was read first: `Path.read_bytes` took 18 µs for a file of
            # the bench's 100,000 episodes, and this 9.
            text = transcript_of(read_at_most(self.episode_files[key], MAX_DOCUMENT_BYTES + 1))
        except ValueError:  # no longer JSON, or past the limit, cut short: rewritten since it was read
            text = None
        if text is None:
            raise ContractError([Problem("transcript", f"is gone from {key} since it was read")])
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(self.companions.keys() | self.texts.keys() | self.episode_files.keys())

    def __len__(self) -> int:
        return len(self.companions) + len(self.texts) + len(self.episode_files)


@dataclass
class SourceFolder:
    catalogs: dict[str, Catalog] = field(default_factory=dict)
    transcripts: Transcripts = field(default_factory=Transcripts)
    problems: list[tuple[Path, Problem]] = field(default_factory=list)


def upload_key(path: str | PurePath) -> str:
    """The source bucket key a file stands for, from the last parts of its path."""
    path = PurePath(path)
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


def read_change(path: str | Path) -> EpisodePut | ShowPut | TranscriptPut:
    """Check one file against the contract, its path standing for its key."""
    return read_upload(path).change()


@dataclass(frozen=True)
class Upload:
    """A file as it is read: the key its path spells, and what it holds, not yet checked."""

    source: SourceKey
    body: bytes

    def change(self) -> EpisodePut | ShowPut | TranscriptPut:
        """What the upload changes, once checked against the contract."""
        return put(self.source, self.body)


def read_upload(path: str | Path) -> Upload:
    """The file, read as an upload to the key its path spells."""
    source = parse_source_key(upload_key(path))
    try:
        # One byte past the limit is enough to reject a file as too large, and a huge one is never read whole.
        return Upload(source, read_at_most(path, source.max_bytes + 1))
    except OSError as error:
        raise ContractError([Problem("document", f"cannot be read: {error.strerror}")]) from None


def read_at_most(path: str | Path, limit: int) -> bytes:
    """At most `limit` bytes of the file. It asks for no more than the file holds, and a byte to see
    it end: a read of the limit makes a buffer of that size (1 MiB) for every file, then shrinks it,
    and took two thirds of the time a 3 KB episode file took to read. A file that grew since is read
    on to the limit. The file is read through its descriptor, with no file object around it: opening
    a 3 KB file as one and reading it took 12 µs, and this 5 µs."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        body = b""
        wanted = min(os.fstat(descriptor).st_size, limit - 1) + 1
        while part := os.read(descriptor, wanted):
            body += part
            if len(part) < wanted or len(body) >= limit:  # a file reads short only at its end
                break
            wanted = limit - len(body)
        return body
    finally:
        os.close(descriptor)


def read_source_folder(
    root: Path,
    settings: Settings,
    run: RunMap = in_runs,
    progress: bool | None = False,
    meanwhile: Callable[[], object] = lambda: None,
) -> SourceFolder:
    """Every show's catalog as a from-scratch publish of the folder builds it; bad files are set aside.
    `run` maps the reading of the files, a run at a time, for workers to share, and `meanwhile` is
    called here once the files are handed to it, before its first result is taken. `progress` shows
    the files read on a bar: True always, None on a terminal only."""
    folder = SourceFolder()
    # Each upload becomes its catalog entry, or its companion's record, as soon as it is read and
    # accepted, so that no show holds every upload whole and every entry at once.
    entries: dict[str, list[CatalogEntry]] = {}
    companions: dict[str, list[Companion]] = {}
    guids: dict[str, dict[str, str]] = {}  # show -> guid -> the slug that has it
    documents: dict[str, Show] = {}
    # Paths as strings: a worker took about 6 us to unpickle a Path and tell its parts, of the 90 us its file took.
    files = [*sorted(map(str, (root / "shows").glob("*.json"))), *_episode_uploads(root / "episodes")]
    reads = run(partial(_read_run, excerpt_chars=settings.excerpt_chars, held=held_share(len(files))), files)
    meanwhile()
    for path, read in progress_bar(zip(files, reads, strict=True), "reading", "file", progress, len(files)):
        if isinstance(read, tuple):  # refused
            folder.problems += [(Path(path), problem) for problem in read]
            continue
        show = read.source.show
        if isinstance(read, ShowPut):
            documents[show] = read.show
            continue
        if isinstance(read, ReadCompanion):
            folder.transcripts.add_cues(read.source.key, read.cues)
            companions.setdefault(show, []).append(read.record)
            continue
        if problems := serial_problems(documents.get(show) or default_show(show), read.entry.episode):
            folder.problems += [(Path(path), problem) for problem in problems]  # show documents are read first
            continue
        if problem := _guid_taken(read, guids):
            folder.problems.append((Path(path), problem))  # the first file in key order keeps it
            continue
        entries.setdefault(show, []).append(read.entry)
        if read.entry.transcript:
            folder.transcripts.add_text(read.source.key, read.transcript, path)
    for show in sorted(documents.keys() | entries.keys() | companions.keys()):
        folder.catalogs[show] = _first_publish(
            show, documents.get(show), entries.get(show, []), companions.get(show, [])
        )
    return folder


def _episode_uploads(folder: Path) -> list[str]:
    """The uploads in each show's folder, show by show, each show's in name order: what
    `folder.glob("*/*")` finds with an upload's suffix, listed by `os.scandir`, since globbing and
    sorting the paths took 90 ms of a render of 10,000 episodes, before any worker could start."""
    try:
        shows = sorted((entry for entry in os.scandir(folder) if entry.is_dir()), key=lambda entry: entry.name)
    except FileNotFoundError:
        return []
    return [
        os.path.join(show.path, name)
        for show in shows
        for name in sorted(os.listdir(show.path))
        if os.path.splitext(name)[1] in UPLOAD_SUFFIXES
    ]


def held_share(files: int) -> int:
    """The most characters of transcript a folder of `files` holds for one file: an even share of
    HELD_TRANSCRIPTS, so that what is held never passes it, whatever order the files are read in."""
    return HELD_TRANSCRIPTS // max(1, files)


@dataclass(frozen=True)
class ReadEpisode:
    """An episode file as a worker reads it: the catalog entry it makes, and its transcript if it is held."""

    source: SourceKey
    entry: CatalogEntry
    transcript: str | None

    @classmethod
    def of(cls, put: EpisodePut, entry: CatalogEntry, held: int) -> "ReadEpisode":
        """The episode `put` uploads, whose transcript is held if it has at most `held` characters."""
        transcript = put.episode.transcript
        return cls(put.source, entry, transcript if transcript is not None and len(transcript) <= held else None)


@dataclass(frozen=True)
class ReadCompanion:
    """A companion transcript as a worker reads it: the catalog's record of it, made here, and its
    cues pickled, for the process that renders to set down rather than hold."""

    source: SourceKey
    record: Companion
    cues: bytes

    @classmethod
    def of(cls, put: TranscriptPut, excerpt_chars: int) -> "ReadCompanion":
        record = Companion.of(put.source, put.cues, put.sequencer, excerpt_chars)
        return cls(put.source, record, pickled(put.cues))


type Read = ReadEpisode | ReadCompanion | ShowPut | tuple[Problem, ...]


def _read_run(paths: Sequence[str], excerpt_chars: int, held: int) -> list[Read]:
    """What each file holds, or what is wrong with it: results that may cross between processes. An
    episode's entry is made here, its excerpt cut and its notes rendered, by whichever process reads
    the file: the one that takes in a worker's results only unpickles them (`shared_runs`). A
    transcript of more than `held` characters stays behind: a render of 100,000 episodes that sent
    every one back, to hold 64 MB of them, peaked at 835 MB, and at 598 MB without.

    Each stage is done for every file of the run before the next: the files are read, then checked,
    then their entries made, their notes together (`CatalogEntry.each_of`). A file at a time, the
    kernel's, pydantic's, cmark's and nh3's code each pushed the others out of the processor's
    caches: 2,000 of the bench's files took 97 µs each to read, and 220 µs with show notes, where
    they take 82 and 148 (best of 9)."""
    uploads = [_refused_or(read_upload, path) for path in paths]
    changes = [_checked(upload, excerpt_chars) if isinstance(upload, Upload) else upload for upload in uploads]
    entries = iter(
        CatalogEntry.each_of([change for change in changes if isinstance(change, EpisodePut)], excerpt_chars)
    )
    return [
        ReadEpisode.of(change, next(entries), held) if isinstance(change, EpisodePut) else change for change in changes
    ]


def _checked(upload: Upload, excerpt_chars: int) -> EpisodePut | ShowPut | ReadCompanion | tuple[Problem, ...]:
    """What the upload changes, or its problems; a companion's at once as what is sent back of it,
    its cues pickled. Its cues parsed until the whole run was checked, a render of 64 companions of
    4.9 MB (10 MB of cues each) peaked at 469 MB, where it peaks at 321 MB."""
    change = _refused_or(upload.change)
    return ReadCompanion.of(change, excerpt_chars) if isinstance(change, TranscriptPut) else change


def _refused_or[**P, T](step: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | tuple[Problem, ...]:
    """What `step` gives, or the problems of the contract error it raises."""
    try:
        return step(*args, **kwargs)
    except ContractError as error:
        return tuple(error.problems)


def _guid_taken(read: ReadEpisode, guids: dict[str, dict[str, str]]) -> Problem | None:
    """Why the episode cannot be published beside the episodes read before it: another has its GUID."""
    owner = guids.setdefault(read.source.show, {}).setdefault(read.entry.guid, read.entry.slug)
    return None if owner == read.entry.slug else guid_taken(read.entry.guid, owner)


def _first_publish(
    show: str, document: Show | None, entries: list[CatalogEntry], companions: list[Companion]
) -> Catalog:
    """What folding the folder's uploads into an empty catalog builds, in one pass: a folder holds
    each key once, so no upload can replace another, and sorting once replaces an insert per episode."""
    return Catalog(
        show=show,
        document=document,
        episodes=tuple(sorted(entries, key=lambda entry: entry.order)),  # a key: 9 ms for 10,000, not 52
        companions=tuple(sorted(companions, key=lambda companion: (companion.slug, companion.format))),
    )
