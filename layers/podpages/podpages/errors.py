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

    def __reduce__(self) -> tuple[object, ...]:
        """Unpickled as it was, as when a render's worker raises it: not made again from its message,
        which a subclass's constructor does not take (it takes problems, or a show and an episode)."""
        return _as_it_was, (type(self), self.args, self.__dict__)


def _as_it_was[Error: PodpagesError](kind: type[Error], args: tuple[object, ...], state: dict[str, object]) -> Error:
    error = kind.__new__(kind, *args)
    error.__dict__.update(state)
    return error


class ProblemsError(PodpagesError):
    """An error that names each thing wrong, by field."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(problem) for problem in problems))


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
        self.problem = Problem("show", f"no show {show!r} is published")
        super().__init__(str(self.problem))


class UnknownEpisode(PodpagesError):
    """The show's catalog has no episode with this slug."""

    def __init__(self, show: str, episode: str):
        self.problem = Problem("episode", f"show {show!r} has no episode {episode!r}")
        super().__init__(str(self.problem))


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
