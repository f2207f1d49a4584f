"""A recording endpoint on 127.0.0.1: it answers each path with the statuses it is given, in turn
(the last one for ever after), or hangs past a caller's timeout, and keeps every request it got."""

import threading
import time
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

    def __enter__(self) -> "Recorder":
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._answer(b"")

            def do_POST(self) -> None:
                self._answer(self.rfile.read(int(self.headers.get("Content-Length", 0))))

            def _answer(self, body: bytes) -> None:
                recorder.requests.append(Recorded(self.command, self.path, dict(self.headers), body))
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

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"
