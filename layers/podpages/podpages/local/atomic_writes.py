"""moto's S3 writes made atomic, as S3's are.

moto checks a write's condition (`If-Match`, `If-None-Match`) and then writes, and another thread's
write can come between the two: two takers of a show's lease could each find no lease and each
write one (4 runs in 200 of six takers at once). S3 decides each conditional write whole, so every
put and delete of an object here holds one lock from its check to its write. The bodies are read
before it is taken, so the lock holds no upload's transfer.
"""

import threading
from collections.abc import Callable
from functools import wraps
from typing import Any

from moto.s3.responses import S3Response

_WRITES = threading.RLock()


def make_writes_atomic() -> None:
    """Hold the lock around moto's handling of each PutObject and DeleteObject; once a process."""
    for name in ("put_object", "delete_object"):
        method = getattr(S3Response, name)
        if not getattr(method, "atomic", False):
            setattr(S3Response, name, _atomic(method))


def _atomic(method: Callable[[S3Response], Any]) -> Callable[[S3Response], Any]:
    @wraps(method)
    def atomic(self: S3Response) -> Any:
        with _WRITES:
            return method(self)

    atomic.atomic = True  # type: ignore[attr-defined]
    return atomic
