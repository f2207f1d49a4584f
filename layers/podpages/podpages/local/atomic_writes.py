"""moto's S3 writes made atomic and conditional, as S3's are.

moto checks a write's condition (`If-Match`, `If-None-Match`) and then writes, and another thread's
write can come between the two: two takers of a show's lease could each find no lease and each
write one (4 runs in 200 of six takers at once). S3 decides each conditional write whole, so every
put and delete of an object here holds one lock from its check to its write. The bodies are read
before it is taken, so the lock holds no upload's transfer.

moto's DeleteObjects also ignores each object's `ETag`, and deletes it whatever version it holds.
S3 deletes such an object only while it has that ETag (a conditional delete), and reports it among
the request's errors where not: so does this, though moto names the error `AccessDenied` where S3
names it `PreconditionFailed`.
"""

import threading
from collections.abc import Callable
from functools import wraps
from typing import Any

from moto.s3.exceptions import MissingKey
from moto.s3.models import S3Backend
from moto.s3.responses import S3Response

_WRITES = threading.RLock()

type Deleted = tuple[list[tuple[str, str | None, str | None]], list[str]]


def make_writes_atomic() -> None:
    """Hold the lock around moto's handling of each PutObject, DeleteObject and DeleteObjects, and
    hold each object of a DeleteObjects to its ETag; once a process."""
    for name in ("put_object", "delete_object"):
        method = getattr(S3Response, name)
        if not getattr(method, "atomic", False):
            setattr(S3Response, name, _atomic(method))
    if not getattr(S3Backend.delete_objects, "atomic", False):
        S3Backend.delete_objects = _conditional(S3Backend.delete_objects)  # type: ignore[method-assign]


def _atomic(method: Callable[[S3Response], Any]) -> Callable[[S3Response], Any]:
    @wraps(method)
    def atomic(self: S3Response) -> Any:
        with _WRITES:
            return method(self)

    atomic.atomic = True  # type: ignore[attr-defined]
    return atomic


def _conditional(method: Callable[..., Deleted]) -> Callable[..., Deleted]:
    @wraps(method)
    def conditional(
        self: S3Backend, bucket_name: str, objects: list[dict[str, Any]], *args: Any, **kwargs: Any
    ) -> Deleted:
        with _WRITES:
            held = [item for item in objects if "ETag" in item and not _has_etag(self, bucket_name, item)]
            deleted, errors = method(self, bucket_name, [item for item in objects if item not in held], *args, **kwargs)
            return deleted, [*errors, *(item["Key"] for item in held)]

    conditional.atomic = True  # type: ignore[attr-defined]
    return conditional


def _has_etag(backend: S3Backend, bucket_name: str, item: dict[str, Any]) -> bool:
    """Whether the object `item` names exists with the ETag it names (quoted or not, as S3 takes it)."""
    try:
        key = backend.get_object(bucket_name, item["Key"])
    except MissingKey:
        return False
    return key is not None and key.etag.strip('"') == str(item["ETag"]).strip('"')
