"""A loopback HTTP server that sends canned bytes: the hostile or broken OpenAI-compatible server
a real llama_cpp.server cannot play (a silent one, a redirect, a huge line, fields of the wrong type)."""

from __future__ import annotations

import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def piece(text: str) -> bytes:
    return b'data: {"choices": [{"index": 0, "delta": {"content": "%s"}, "finish_reason": null}]}\n\n' % text.encode()


FINISH = b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n'
USAGE = b'data: {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 2}}\n\n'
DONE = b"data: [DONE]\n\n"


@dataclass
class Canned:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay_s: float = 0.0  # before the headers are sent
    hold_s: float = 0.0  # after the body, with the connection still open (a server evaluating a prompt)
    filler: bytes = b""  # written after the body `filler_count` times, so a huge reply costs no memory here
    filler_count: int = 0
    silent: bool = False  # accept the request and never answer it, not even with headers
    content_type: str = "text/event-stream"


class CannedServer:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.reply = Canned()
        self.replies_by_path: dict[str, Canned] = {}  # a path's own reply, where it differs from `reply`
        self.first_replies: list[Canned] = []  # the replies to the next requests, in order, before `reply`
        self.asked = threading.Event()  # a request has come (and, for a silent reply, is being ignored)
        self.bodies: list[bytes] = []  # the body of each request, in order
        canned = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                canned.bodies.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                reply = canned.replies_by_path.get(self.path, canned.reply)
                if canned.first_replies:
                    reply = canned.first_replies.pop(0)
                canned.asked.set()
                if reply.silent:
                    self.rfile.read(1)  # until the client hangs up
                    return
                time.sleep(reply.delay_s)
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(reply.body)
                    for _ in range(reply.filler_count):
                        self.wfile.write(reply.filler)
                    self.wfile.flush()
                    time.sleep(reply.hold_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (the timeout test, a refused reply)

            do_GET = do_POST  # the same canned reply for the model list

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, name="canned-server")
        self._thread.start()
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
