"""What every bucket shares: a read that may find nothing, the conditions of a conditional write,
and the error codes that mean such a write lost."""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

# Conditional writes lose with 412, with 409 when two race, and with 404 when the object they
# expected was deleted.
CONFLICTS = frozenset({"PreconditionFailed", "ConditionalRequestConflict", "NoSuchKey"})
DELETE_BATCH = 1000  # the most keys DeleteObjects takes


@dataclass(frozen=True)
class Stored:
    """An object as read, with the ETag a conditional write names it by."""

    body: bytes
    etag: str


@dataclass(frozen=True)
class StoredLines:
    """An object read a line at a time as it arrives, with its ETag."""

    lines: Iterator[bytes]
    etag: str


LINES_READ_AT_ONCE = 1024 * 1024  # bytes of the object read at a time into lines


class Unchanged(Exception):
    """The object still has the ETag the reader already holds (HTTP 304)."""


def error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def lost_race(error: ClientError) -> bool:
    """Whether a conditional write failed because the object is not the version it named."""
    return error_code(error) in CONFLICTS


def only_over(etag: str | None) -> dict[str, str]:
    """The condition of a write over the version read with `etag`, or over nothing when None."""
    return {"IfMatch": etag} if etag else {"IfNoneMatch": "*"}


def only_of(etag: str | None) -> dict[str, str]:
    """The condition of a batch delete's object: that it still has `etag`, or none when None."""
    return {"ETag": etag} if etag else {}


def get_object(client: Any, bucket: str, key: str, **options: str) -> dict[str, Any] | None:
    """GetObject, or None when there is no such key."""
    try:
        response: dict[str, Any] = client.get_object(Bucket=bucket, Key=key, **options)
    except ClientError as error:
        if error_code(error) == "NoSuchKey":
            return None
        raise
    return response


def read_stored(client: Any, bucket: str, key: str, **options: str) -> Stored | None:
    """The object's bytes and ETag, or None when there is no such key."""
    response = get_object(client, bucket, key, **options)
    return None if response is None else Stored(response["Body"].read(), response["ETag"])


def read_lines(client: Any, bucket: str, key: str) -> StoredLines | None:
    """The object's lines, read as they arrive, and its ETag, or None when there is no such key."""
    response = get_object(client, bucket, key)
    if response is None:
        return None
    return StoredLines(response["Body"].iter_lines(chunk_size=LINES_READ_AT_ONCE), response["ETag"])


def delete_keys(
    client: Any, bucket: str, keys: list[str], etags: Mapping[str, str] | None = None
) -> list[dict[str, str]]:
    """Delete `keys` in as few requests as S3 allows (none for none), each key in `etags` only while
    it has that ETag; what S3 says of each key it could not delete, which a DeleteObjects request
    reports rather than raises."""
    etags = etags or {}
    errors: list[dict[str, str]] = []
    for start in range(0, len(keys), DELETE_BATCH):
        objects = [{"Key": key, **only_of(etags.get(key))} for key in keys[start : start + DELETE_BATCH]]
        response = client.delete_objects(Bucket=bucket, Delete={"Objects": objects, "Quiet": True})
        errors += response.get("Errors", [])
    return errors
