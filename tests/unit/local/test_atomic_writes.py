"""moto's conditional writes, made atomic as S3's are (`local/atomic_writes`): two writers that
each check first never both find the object missing."""

import sys
import threading

from botocore.exceptions import ClientError
from moto.s3.models import S3Backend

WAIT_S = 0.5  # how long the first writer's check waits for the second writer to come to its own


def test_of_two_writes_if_none_match_that_check_at_once_one_wins(s3, monkeypatch):
    # Given a check that, having found the key missing, waits for a second writer's check before it
    # answers: without the lock both would find it missing, as moto checks and writes in two steps
    first_checked, second_checked = threading.Event(), threading.Event()
    get_object = S3Backend.get_object

    def slow_check(self, *args, **kwargs):
        found = get_object(self, *args, **kwargs)
        if sys._getframe(1).f_code.co_name != "put_object":  # moto looks the key up before it too
            return found
        if threading.current_thread().name == "first":
            first_checked.set()
            second_checked.wait(WAIT_S)
        else:
            second_checked.set()
        return found

    monkeypatch.setattr(S3Backend, "get_object", slow_check)
    outcomes: dict[str, str] = {}

    def write(name: str) -> None:
        try:
            s3.put_object(Bucket="source-bucket", Key="locks/daily.json", Body=name.encode(), IfNoneMatch="*")
            outcomes[name] = "written"
        except ClientError as error:
            outcomes[name] = error.response["Error"]["Code"]

    # When two writers put the same key, each only if it is missing, at once
    first = threading.Thread(target=write, args=("first",), name="first")
    first.start()
    assert first_checked.wait(timeout=10), "the first writer never checked"
    second = threading.Thread(target=write, args=("second",), name="second")
    second.start()
    first.join()
    second.join()

    # Then one wins and the other is refused, as S3 decides
    assert sorted(outcomes.values()) == ["PreconditionFailed", "written"], outcomes
    body = s3.get_object(Bucket="source-bucket", Key="locks/daily.json")["Body"].read().decode()
    assert outcomes[body] == "written"
