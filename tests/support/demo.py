"""`podpages demo` as a user runs it: its own process, on free ports, stopped with Ctrl-C (SIGINT)."""

import signal
import subprocess
import sys
import threading
import time
from urllib.error import HTTPError
from urllib.request import Request, urlopen

from support.local_aws import free_port

READY = "Ctrl-C stops everything."


class Demo:
    def __init__(self, *options: str, ready_within: float = 90):
        self.port, self.aws_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.endpoint = f"http://127.0.0.1:{self.aws_port}"
        self.options = options
        self.ready_within = ready_within
        self.output: list[str] = []

    def __enter__(self) -> "Demo":
        command = [
            sys.executable,
            "-m",
            "podpages.cli.main",
            "demo",
            "--port",
            str(self.port),
            "--aws-port",
            str(self.aws_port),
        ]
        self.process = subprocess.Popen(
            [*command, *self.options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + self.ready_within
        while READY not in self.output and time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("podpages demo exited early:\n" + "\n".join(self.output))
            time.sleep(0.1)
        if READY not in self.output:
            self.stop()
            raise RuntimeError("podpages demo was not ready in time:\n" + "\n".join(self.output))
        return self

    def __exit__(self, *exc_info) -> None:
        if self.process.poll() is None:
            self.stop()

    def stop(self, timeout: float = 20) -> int:
        """Ctrl-C, as a user would press it; the exit code once it has stopped."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.reader.join(timeout=5)

    def cli(self, *arguments: str) -> subprocess.CompletedProcess:
        """The `podpages` command, pointed at this stack."""
        return self.cli_at(self.endpoint, *arguments)

    @staticmethod
    def cli_at(endpoint: str, *arguments: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "podpages.cli.main", *arguments, "--endpoint-url", endpoint]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return http_get(self.url + path, headers)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))


def http_get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body; an HTTP error status is an answer too."""
    try:
        with urlopen(Request(url, headers=headers or {}), timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except HTTPError as error:
        return error.code, dict(error.headers), error.read()


def eventually(check, within: float = 20, every: float = 0.25):
    """The first truthy result of `check`, polled for up to `within` seconds; the last result otherwise."""
    deadline = time.monotonic() + within
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(every)
