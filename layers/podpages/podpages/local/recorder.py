"""A recording endpoint on 127.0.0.1, standing in for WebSub hubs, ping endpoints and IndexNow: it
answers each path with the statuses it is given, in turn (the last one for ever after), or hangs past
a caller's timeout, and keeps every request it got. `podpages demo --notify-recorder` prints them."""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HANG = -1  # a "status" that makes the recorder answer nothing for `hang_seconds`


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str  # with its query
    headers: dict[str, str]
    body: bytes


@dataclass
class Recorder:
    answers: dict[str, list[int]] = field(default_factory=dict)  # path (without query) -> statuses in turn
    hang_seconds: float = 2.0
    requests: list[Recorded] = field(default_factory=list)
    on_request: Callable[[Recorded], None] = lambda _request: None  # told of each request as it comes
    port: int = 0  # 0: any free port

    def __enter__(self) -> "Recorder":
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._answer(b"")

            def do_POST(self) -> None:
                self._answer(self.rfile.read(int(self.headers.get("Content-Length", 0))))

            def _answer(self, body: bytes) -> None:
                recorded = Recorded(self.command, self.path, dict(self.headers), body)
                recorder.requests.append(recorded)
                recorder.on_request(recorded)
                path = self.path.split("?")[0]
                statuses = recorder.answers.get(path, [200])
                status = statuses.pop(0) if len(statuses) > 1 else statuses[0]
                if status == HANG:
                    time.sleep(recorder.hang_seconds)
                    return
                reply = f"answered {status}".encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def kinds(self, kind: str) -> list[Recorded]:
        """The requests made to the path `/<kind>`, as the demo and the tests name their endpoints."""
        return [request for request in self.requests if request.path.split("?")[0] == f"/{kind}"]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"


LOCAL_INDEXNOW_KEY = "podpages-local-indexnow-key"


def endpoints_of(recorder: Recorder) -> dict[str, str]:
    """The environment that names the recorder as every endpoint: its paths /websub, /ping and
    /indexnow, with a key for IndexNow."""
    return {
        "WEBSUB_HUBS": f"{recorder.url}/websub",
        "PING_ENDPOINTS": f"{recorder.url}/ping",
        "INDEXNOW_KEY": LOCAL_INDEXNOW_KEY,
        "INDEXNOW_ENDPOINT": f"{recorder.url}/indexnow",
    }
