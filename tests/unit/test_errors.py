"""What the domain's errors say: a write that finds no room is the user's to mend, any other is not;
an error that names its problems names the same ones in the process it crosses to."""

import errno
import pickle

import pytest

from podpages.errors import ContractError, NoRoom, Problem, UnknownEpisode, UnknownShow, UsageError, room_needed


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EFBIG])
def test_a_write_that_finds_no_room_is_a_usage_error_saying_where_and_what_to_do(code):
    # When a write into a folder finds no room, then the error names the folder, why, and what to do
    with pytest.raises(NoRoom) as raised, room_needed("/site", "the site", "render into a folder with more"):
        raise OSError(code, "No space left on device")
    assert isinstance(raised.value, UsageError)
    assert str(raised.value) == (
        "no room in /site for the site (No space left on device): free some there, or render into a folder with more"
    )


def test_any_other_failed_write_stays_as_it_is():
    # When a write fails for another reason, then that error leaves as itself, with its traceback
    with pytest.raises(PermissionError), room_needed("/site", "the site", "render into a folder with more"):
        raise PermissionError(errno.EACCES, "Permission denied")


@pytest.mark.parametrize(
    ("error", "names"),
    [
        (ContractError([Problem("transcript", "is gone from episodes/show/a.json since it was read")]), "problems"),
        (UnknownShow("show"), "problem"),
        (UnknownEpisode("show", "a"), "problem"),
    ],
)
def test_an_error_that_names_its_problems_keeps_them_across_processes(error, names):
    # When an error made from more than its message is pickled and unpickled, as it crosses from a
    # render's worker to the process that mapped the work
    received = pickle.loads(pickle.dumps(error))

    # Then it is the same error, holding the same problems, and says the same
    assert type(received) is type(error)
    assert getattr(received, names) == getattr(error, names)
    assert str(received) == str(error)
