"""The domain's error types: what went wrong, in terms a publisher can act on."""

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an upload: the field it is in, and why."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class PodpagesError(Exception):
    """Base of every error the domain raises on purpose."""


class ProblemsError(PodpagesError):
    """An error that names each thing wrong, by field."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))

    def __reduce__(self) -> tuple[type["ProblemsError"], tuple[list[Problem]]]:
        """Made again from its problems where it is unpickled, as when a render's worker raises it:
        from its message, each character became a problem of its own."""
        return type(self), (self.problems,)


class ContractError(ProblemsError):
    """An upload breaks the metadata contract. Bad data does not heal, so it is never retried."""


class WriteConflict(PodpagesError):
    """A conditional write lost: the object changed between our read and our write (HTTP 412)."""


class CatalogConflict(WriteConflict):
    """Someone else committed the show's catalog between our read and our write."""


class ShowBusy(PodpagesError):
    """Another invocation holds the show's lease for longer than we wait; the work is retried later."""


class OutOfTime(PodpagesError):
    """Too little of the invocation is left to start a show's publish; the work is retried later."""


class InvalidRequest(ProblemsError):
    """An API request names something that cannot exist: a malformed slug, a `limit` out of range."""


class UnknownShow(PodpagesError):
    """No show with this slug is published: it has no catalog."""

    def __init__(self, show: str):
        self.show = show
        self.problem = Problem("show", f"no show {show!r} is published")
        super().__init__(str(self.problem))

    def __reduce__(self) -> tuple[type["UnknownShow"], tuple[str]]:
        return type(self), (self.show,)  # as ProblemsError's


class UnknownEpisode(PodpagesError):
    """The show's catalog has no episode with this slug."""

    def __init__(self, show: str, episode: str):
        self.show, self.episode = show, episode
        self.problem = Problem("episode", f"show {show!r} has no episode {episode!r}")
        super().__init__(str(self.problem))

    def __reduce__(self) -> tuple[type["UnknownEpisode"], tuple[str, str]]:
        return type(self), (self.show, self.episode)  # as ProblemsError's


class UsageError(PodpagesError):
    """A command was given something its user can fix: a bad option, a missing folder, a setting.
    The CLI says so and exits 2; any other error is a bug and keeps its traceback."""


# Why a write finds no room: the file system is full, or the user's quota or the largest file is reached.
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


class NoRoom(UsageError):
    """A command's write found no room in the folder it went to (`NO_ROOM`): its user can free some
    there, or choose a folder with more."""


@contextmanager
def room_needed(folder: str, what: str, elsewhere: str) -> Iterator[None]:
    """Writes of `what` into `folder`, where one that finds no room raises NoRoom, saying where and
    what to do: free some there, or `elsewhere`. Any other error stays as it is."""
    try:
        yield
    except OSError as error:
        if error.errno not in NO_ROOM:
            raise
        raise NoRoom(f"no room in {folder} for {what} ({error.strerror}): free some there, or {elsewhere}") from None
