"""moto's server on 127.0.0.1: S3 and SQS over HTTP, as the Lambda functions talk to AWS. It asks
for no credentials, so it listens on the loopback address alone, never on a host's other interfaces."""

import logging
import socket
from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.request import Request, urlopen

import boto3
from botocore.config import Config
from moto import backends
from moto.server import ThreadedMotoServer

from podpages.local.atomic_writes import make_writes_atomic

REGION = "us-east-1"
LOOPBACK = "127.0.0.1"

# moto's server looks each request's host up among its own modules: for every request it lists its
# package's folder and asks of each of its 180 entries whether it is a folder. The folder does not
# change while the server runs, so it is listed once: a removal that shifts 100 frozen pages took
# 3.3 s end to end on the local stack, where it took 3.9 s.
backends.list_of_moto_modules = cache(lambda listed=backends.list_of_moto_modules: tuple(listed()))
make_writes_atomic()  # as S3's are (`atomic_writes`): for the server in this process, or one started from it


def free_port(host: str = LOOPBACK) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]  # an AF_INET socket's name is (host, port)
        return port


class LocalAws:
    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.endpoint = f"http://{LOOPBACK}:{self.port}"
        self.server = ThreadedMotoServer(ip_address=LOOPBACK, port=self.port, verbose=False)

    def __enter__(self) -> "LocalAws":
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per S3 request would drown the rest
        self.server.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.server.stop()

    def environment(self) -> dict[str, str]:
        """What points boto3, and the handlers imported with it, at the local endpoint."""
        return local_environment(self.endpoint)

    def client(self, service: str) -> Any:
        return local_client(service, self.endpoint)

    def reset(self) -> None:
        """Forget every bucket and queue."""
        urlopen(Request(f"{self.endpoint}/moto-api/reset", method="POST"), timeout=10).close()


_CREDENTIALS = {"aws_access_key_id": "local", "aws_secret_access_key": "local", "aws_session_token": "local"}


def local_client(service: str, endpoint: str, config: Config | None = None) -> Any:
    """A boto3 client for the local stack at `endpoint`, with its stand-in credentials."""
    # boto3's stubs overload `client` once for each service's literal name, with none for a plain str:
    # the service is the caller's to name, so the call and the client it returns are untyped.
    any_client: Callable[..., Any] = boto3.client
    return any_client(service, endpoint_url=endpoint, region_name=REGION, config=config, **_CREDENTIALS)


def local_environment(endpoint: str) -> dict[str, str]:
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": _CREDENTIALS["aws_access_key_id"],
        "AWS_SECRET_ACCESS_KEY": _CREDENTIALS["aws_secret_access_key"],
        "AWS_SESSION_TOKEN": _CREDENTIALS["aws_session_token"],
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
    }
