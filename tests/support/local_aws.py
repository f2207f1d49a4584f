"""moto's server on 127.0.0.1: S3 and SQS over HTTP, as the Lambda talks to AWS."""

import socket
from urllib.request import Request, urlopen

import boto3
from moto.server import ThreadedMotoServer

REGION = "us-east-1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalAws:
    def __init__(self):
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)

    def __enter__(self) -> "LocalAws":
        self.server.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.server.stop()

    def environment(self) -> dict[str, str]:
        """What points boto3 in this process, and the handlers it imports, at the local endpoint."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_SESSION_TOKEN": "testing",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
        }

    def client(self, service: str):
        return boto3.client(service, endpoint_url=self.endpoint, region_name=REGION)

    def reset(self) -> None:
        """Forget every bucket and queue, between tests."""
        urlopen(Request(f"{self.endpoint}/moto-api/reset", method="POST"), timeout=10).close()
