"""The site written to a local folder instead of a bucket, for `podpages render`.

A render lists every file it writes in a manifest beside them (`.podpages-render.jsonl`, one key
a line), each before it is written, so that even an interrupted render is listed whole. Replacing
a render (`--force`) deletes what its manifest lists and nothing else: a file a user put beside
the site stays, and a folder no render wrote into is never emptied."""

import contextlib
import json
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from podpages.errors import UsageError, room_needed
from podpages.render.site_objects import Published

MANIFEST = ".podpages-render.jsonl"


class SiteFolder:
    def __init__(self, root: Path):
        self.root = root
        self.manifest = root / MANIFEST
        self._folders: set[str] = set()  # folders made or found inside the root, so each is checked once

    def apply(self, puts: list[Published], deletes: list[str]) -> None:
        with room_needed(str(self.root), "the site", "render into a folder with more"):
            self._record(item.key for item in puts)
            for item in puts:
                _write(self._path(item.key), item.parts())
        for key in deletes:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._path(key))

    def remove_render(self) -> None:
        """Delete the files the manifest lists, the folders that leaves empty, and the manifest. Each
        folder is found once, not each file: a render of 10,000 episodes lists 20,000 files, and
        resolving each took 1.8 s. A listed name that is now a link is deleted, not followed."""
        root = os.path.realpath(self.root)
        folders: dict[str, str] = {}  # each folder the manifest names, to where it is
        files = []  # every key is checked before any file is deleted
        for key in self._listed_keys():
            folder, name = os.path.split(key)
            if folder not in folders:
                folders[folder] = self._listed_folder(folder, root, key)
            if name in ("", ".", ".."):
                raise self._not_a_listed_file(key)
            files.append(os.path.join(folders[folder], name))
        for file in files:
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                os.unlink(file)
        emptied = {parent for folder in folders.values() for parent in _folders_below(folder, root)}
        for folder in sorted(emptied, key=len, reverse=True):  # the deepest first
            with contextlib.suppress(OSError):  # the user's files keep it, or it is gone
                os.rmdir(folder)
        self.manifest.unlink()

    def _record(self, keys: Iterable[str]) -> None:
        """Add `keys` to the manifest, on disk before the files they name are written. One write to
        a file opened for appending: workers that record at once never split each other's lines."""
        lines = "".join(f"{json.dumps(key)}\n" for key in keys).encode()
        descriptor = os.open(self.manifest, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            _write_all(descriptor, lines)
        finally:
            os.close(descriptor)

    def _listed_keys(self) -> list[str]:
        """The keys the manifest lists. One this code did not write is the user's to sort out."""
        try:
            keys = [json.loads(line) for line in self.manifest.read_text(encoding="utf-8").splitlines()]
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise self._not_a_manifest() from None
        if not all(isinstance(key, str) for key in keys):
            raise self._not_a_manifest()
        return keys

    def _not_a_manifest(self) -> UsageError:
        return UsageError(f"{self.manifest} is not a list podpages render wrote; clear {self.root} by hand")

    def _listed_folder(self, folder: str, root: str, key: str) -> str:
        """Where the folder of a listed key is, `root` being the site folder's. A key that leads out
        of the folder was never written by a render."""
        where = os.path.realpath(os.path.join(root, folder))
        if where != root and not where.startswith(root + os.sep):
            raise self._not_a_listed_file(key)
        return where

    def _not_a_listed_file(self, key: str) -> UsageError:
        return UsageError(f"{self.manifest} lists {key!r}, outside {self.root}; clear {self.root} by hand")

    def _path(self, key: str) -> str:
        """Where a key is written: in a folder inside the root, made if need be. `_write` follows no
        link in the file's own name, and `_folder` none on the way to it, so no key, and no link left
        in the folder, takes a write outside it. Paths are plain strings here: a render writes one
        for each of tens of thousands of files."""
        if key.startswith("/") or ".." in key.split("/"):
            raise ValueError(f"object key {key!r} leaves the site folder")
        path = os.path.join(self.root, key)
        self._folder(os.path.dirname(path), key)
        return path

    def _folder(self, folder: str, key: str) -> None:
        """Make `folder` and those it lies in below the root, or find each a folder and not a link:
        each once. A folder made here holds no link, so only one found is looked at."""
        if folder in self._folders:
            return
        if folder == os.fspath(self.root):
            os.makedirs(folder, exist_ok=True)  # the root may be a link: the user named it
        else:
            self._folder(os.path.dirname(folder), key)
            try:
                os.mkdir(folder)
            except FileExistsError:
                if not stat.S_ISDIR(os.lstat(folder).st_mode):
                    raise ValueError(f"object key {key!r} leaves the site folder: {folder} is not a folder") from None
        self._folders.add(folder)


def open_for_render(out: Path, source: Path, force: bool) -> SiteFolder:
    """The folder a render of `source` may write into: new, empty, or holding an earlier render,
    which `force` removes. Refused, `force` or not: a folder a render would spoil (see `_spoiled`),
    and one holding files but no manifest, since nothing says which of them a render wrote."""
    if reason := _spoiled(out.resolve(), source.resolve()):
        raise UsageError(f"refusing --out {out}: it {reason}; render into a folder of its own")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is not a folder")
    folder = SiteFolder(out)
    if out.exists() and any(out.iterdir()):
        if not folder.manifest.is_file():
            raise UsageError(
                f"--out {out} is not empty and holds no earlier render (no {MANIFEST}), so even --force "
                "cannot tell which files are the site's; choose a new or empty folder"
            )
        if not force:
            raise UsageError(f"--out {out} holds an earlier render; pass --force to replace it")
        folder.remove_render()
    out.mkdir(parents=True, exist_ok=True)
    return folder


def _spoiled(out: Path, source: Path) -> str | None:
    """Why writing a site into `out` (resolved) could spoil what is not the site's, if it could:
    it is the file system's root, the source or a folder holding it, the working directory or
    the home folder."""
    if out == Path(out.anchor):
        return "is the file system's root"
    if out == source:
        return "is the source folder"
    if source.is_relative_to(out):
        return f"holds the source folder {source}"
    if out == Path.cwd().resolve():
        return "is the working directory"
    if out == _home():
        return "is the home folder"
    return None


def _home() -> Path | None:
    """The user's home folder, resolved; None when the system cannot say."""
    try:
        return Path.home().resolve()
    except RuntimeError:
        return None


def _write(path: str, parts: Iterable[bytes]) -> None:
    """Write the file anew, a part at a time, refusing to follow a link in its name. Each part goes
    straight to the file: a page is one part, and a buffered file object around it cost a third of
    the time its write took."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    try:
        for part in parts:
            _write_all(descriptor, part)
    finally:
        os.close(descriptor)


def _write_all(descriptor: int, data: bytes) -> None:
    """Write all of `data`, however many calls the system takes to accept it."""
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _folders_below(folder: str, root: str) -> Iterator[str]:
    """`folder` and each it lies in, below `root`."""
    while folder.startswith(root + os.sep):
        yield folder
        folder = os.path.dirname(folder)
