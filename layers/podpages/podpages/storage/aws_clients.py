"""The AWS clients a function makes at its init: botocore's, from one botocore session.

`boto3.client(...)` makes the very same client through the very same session call; what boto3 adds
to it are S3's transfer helpers (`upload_file` and the rest), which podpages never calls. Making
it here spares each cold start the import of boto3 and of s3transfer below it: about 25 ms of
the 250 ms that `import boto3; boto3.client("s3")` takes (medians of 15 fresh interpreters each)."""

from functools import cache
from typing import Any

from botocore.config import Config
from botocore.session import Session


@cache
def session() -> Session:
    """The process's one session, as boto3 keeps its default one: it reads the environment's region
    and credentials once, and each client it makes shares its loaded service models. A handler
    registered on its events sees every client's requests, as on boto3's default session."""
    return Session()


def aws_client(service: str, config: Config | None = None, *, new_session: bool = False) -> Any:
    """A client for `service` in the environment's region, with its credentials: on Lambda, the
    function's role. Untyped, as boto3's is for a service named by a plain str. With `new_session`,
    the process's session is made again first, and reads the environment anew: what a copy resumed
    from a SnapStart snapshot needs, since every copy shares the session the snapshot holds, and
    the credentials it resolved."""
    if new_session:
        session.cache_clear()
    return session().create_client(service, config=config)
