"""Stands in for CloudFormation's presigned response URL: an HTTP server on 127.0.0.1 that keeps
every answer a custom resource PUTs to it."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ResponseUrl:
    def __init__(self):
        self.answers: list[dict] = []
        self.content_types: list[str | None] = []
        answers, content_types = self.answers, self.content_types

        class Handler(BaseHTTPRequestHandler):
            def do_PUT(self):  # the name http.server calls
                body = self.rfile.read(int(self.headers["Content-Length"]))
                answers.append(json.loads(body))
                content_types.append(self.headers.get("Content-Type"))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/response?X-Amz-Signature=local"

    def __enter__(self) -> "ResponseUrl":
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.server.shutdown()
        self.server.server_close()
