"""Failures a real llama_cpp.server does not produce on demand, from a loopback server that sends canned bytes."""

from __future__ import annotations

import shutil
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from app.core.backends.remote import RemoteBackend, RemoteConfig, RemoteError, RemoteErrorKind, RemoteReplyDone
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason

HELLO = [ChatMessage("user", "hello")]


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


class CannedServer:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.reply = Canned()
        canned = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                reply = canned.reply
                time.sleep(reply.delay_s)
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(reply.body)
                    self.wfile.flush()
                    time.sleep(reply.hold_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (the timeout test)

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


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


def reply_from(
    canned: CannedServer, reply: Canned, timeout_s: float = 30.0, stop: threading.Event | None = None
) -> RemoteReplyDone:
    canned.reply = reply
    remote = RemoteBackend(RemoteConfig(canned.url, timeout_s=timeout_s))
    remote.select_model("m")
    try:
        done = [event for event in remote.stream_chat(HELLO, SamplingParams(), stop or threading.Event())][-1]
    finally:
        remote.close()
    assert isinstance(done, ReplyDone) and isinstance(done, RemoteReplyDone)
    return done


def failure_of(canned: CannedServer, reply: Canned, timeout_s: float = 30.0) -> RemoteError:
    with pytest.raises(RemoteError) as raised:
        reply_from(canned, reply, timeout_s)
    return raised.value


def test_a_whole_stream_gives_the_text_and_the_servers_usage(canned: CannedServer) -> None:
    done = reply_from(canned, Canned(body=b": keep-alive\n\n" + piece("Hel") + piece("lo") + FINISH + USAGE + DONE))
    assert done.text == "Hello"
    assert done.stats.stop_reason is StopReason.END_OF_TEXT
    assert (done.stats.prompt_tokens, done.stats.completion_tokens) == (5, 2)
    assert done.usage == {"prompt_tokens": 5, "completion_tokens": 2}


def test_a_malformed_chunk_after_text_ends_the_reply_and_keeps_the_text(canned: CannedServer) -> None:
    done = reply_from(canned, Canned(body=piece("Hel") + b"data: {not json\n\n" + piece("lo")))
    assert done.text == "Hel"
    assert done.stats.stop_reason is StopReason.ERROR
    assert done.failure is not None and done.failure.kind is RemoteErrorKind.MALFORMED_CHUNK


def test_a_stream_that_ends_before_any_text_or_finish_is_cut(canned: CannedServer) -> None:
    assert failure_of(canned, Canned(body=b": nothing yet\n\n")).kind is RemoteErrorKind.STREAM_CUT


def test_a_busy_server_says_when_to_retry(canned: CannedServer) -> None:
    error = failure_of(canned, Canned(status=429, headers={"Retry-After": "12"}, body=b"{}"))
    assert error.kind is RemoteErrorKind.BUSY
    assert error.retry_after_s == 12
    assert "try again in 12 s" in error.message


def test_a_missing_model_is_not_found(canned: CannedServer) -> None:
    error = failure_of(canned, Canned(status=404, body=b'{"error": {"message": "model m not found"}}'))
    assert error.kind is RemoteErrorKind.NOT_FOUND
    assert "model m not found" in error.message


def test_stop_ends_the_reply_while_the_server_is_still_silent(canned: CannedServer) -> None:
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    # The server has answered but sends nothing for a long while, as when it evaluates a long prompt.
    done = reply_from(canned, Canned(body=b": evaluating\n\n", hold_s=20.0), stop=stop)
    assert done.stats.stop_reason is StopReason.USER and done.text == "" and done.failure is None


def test_a_server_silent_past_the_timeout_times_out_before_the_first_token(canned: CannedServer) -> None:
    error = failure_of(canned, Canned(delay_s=1.0, body=piece("late")), timeout_s=0.2)
    assert error.kind is RemoteErrorKind.TIMEOUT_BEFORE_FIRST_TOKEN


def test_an_unknown_host_is_a_dns_failure() -> None:
    remote = RemoteBackend(RemoteConfig("http://glassbox-no-such-host.invalid:8080"))
    remote.select_model("m")
    try:
        with pytest.raises(RemoteError) as raised:
            list(remote.stream_chat(HELLO, SamplingParams(), threading.Event()))
    finally:
        remote.close()
    assert raised.value.kind is RemoteErrorKind.DNS


def test_a_chunk_of_the_wrong_shape_is_malformed_and_the_text_so_far_is_kept(canned: CannedServer) -> None:
    done = reply_from(canned, Canned(body=piece("Hi") + b'data: {"choices": [{"delta": {"content": 7}}]}\n\n'))
    assert done.text == "Hi"
    assert done.failure is not None and done.failure.kind is RemoteErrorKind.MALFORMED_CHUNK


def test_an_error_the_server_sends_mid_stream_ends_the_reply_with_its_message(canned: CannedServer) -> None:
    done = reply_from(canned, Canned(body=piece("Hi") + b'data: {"error": {"message": "out of memory"}}\n\n'))
    assert done.text == "Hi"
    assert done.stats.stop_reason is StopReason.ERROR
    assert "out of memory" in done.stats.error


def test_done_without_a_finish_reason_is_a_complete_reply(canned: CannedServer) -> None:
    done = reply_from(canned, Canned(body=piece("Hi") + DONE))
    assert (done.text, done.stats.stop_reason, done.failure) == ("Hi", StopReason.END_OF_TEXT, None)


@pytest.fixture
def self_signed(tmp_path: Path) -> Path:
    """A folder with cert.pem and key.pem: a certificate for 127.0.0.1 that no system authority signed."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return tmp_path


@pytest.fixture
def tls_canned(self_signed: Path) -> Iterator[CannedServer]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(self_signed / "cert.pem", self_signed / "key.pem")
    server = CannedServer(tls=context)
    yield server
    server.close()


def test_a_certificate_no_authority_signed_is_a_tls_failure(tls_canned: CannedServer) -> None:
    assert failure_of(tls_canned, Canned(body=piece("Hi") + DONE)).kind is RemoteErrorKind.TLS


def test_a_ca_file_makes_the_private_certificate_trusted(tls_canned: CannedServer, self_signed: Path) -> None:
    tls_canned.reply = Canned(body=piece("Hi") + DONE)
    remote = RemoteBackend(RemoteConfig(tls_canned.url, ca_file=self_signed / "cert.pem"))
    remote.select_model("m")
    try:
        events = list(remote.stream_chat(HELLO, SamplingParams(), threading.Event()))
    finally:
        remote.close()
    assert isinstance(events[-1], ReplyDone) and events[-1].text == "Hi"
