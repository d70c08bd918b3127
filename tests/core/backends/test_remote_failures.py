"""Failures a real llama_cpp.server does not produce on demand, from a loopback server that sends canned bytes."""

from __future__ import annotations

import logging
import shutil
import socket
import ssl
import subprocess
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.core.backends.probe import ServerKind, probe_server
from app.core.backends.remote import (
    RemoteBackend,
    RemoteConfig,
    RemoteError,
    RemoteErrorKind,
    RemoteReplyDone,
    TokenizeRoute,
)
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason
from tests.helpers.canned_server import DONE, FINISH, USAGE, Canned, CannedServer, piece

HELLO = [ChatMessage("user", "hello")]


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


MIB = 1024 * 1024


def peak_memory_of(action: Callable[[], object]) -> int:
    """The most memory Python held above the start while `action` ran, in bytes."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_line_over_the_limit_ends_the_reply_with_the_limit_named_and_the_text_kept(canned: CannedServer) -> None:
    done = reply_from(canned, Canned(body=piece("Hi") + b"data: " + b"x" * (9 * MIB) + b"\n\n" + DONE))
    assert done.text == "Hi"
    assert done.failure is not None and done.failure.kind is RemoteErrorKind.MALFORMED_CHUNK
    assert "longer than 8.0 MiB" in done.failure.message


def test_fifty_megabytes_without_a_newline_are_refused_in_bounded_memory(canned: CannedServer) -> None:
    errors: list[RemoteError] = []

    def ask() -> None:
        errors.append(failure_of(canned, Canned(body=b"data: ", filler=b"x" * MIB, filler_count=50)))

    peak = peak_memory_of(ask)
    assert errors[0].kind is RemoteErrorKind.MALFORMED_CHUNK
    assert "longer than 8.0 MiB" in errors[0].message
    assert peak < 32 * MIB


# A stop test must not end by the request's own timeout, which a stop also reports as USER: the
# request waits far longer than the test may run (a guard against a hang, not a measure of speed).
NEVER_S = 3600.0
STOP_GUARD_S = 60


def stopped_soon(remote: RemoteBackend) -> ReplyDone:
    """The reply's end when Stop is pressed 0.3 s after it began (the backend is closed after it)."""
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    try:
        done = list(remote.stream_chat(HELLO, SamplingParams(), stop))[-1]
    finally:
        remote.close()
    assert isinstance(done, ReplyDone)
    return done


@pytest.mark.timeout(STOP_GUARD_S)
def test_stop_ends_a_request_the_server_never_answers(canned: CannedServer) -> None:
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    done = reply_from(canned, Canned(silent=True), timeout_s=NEVER_S, stop=stop)
    assert done.stats.stop_reason is StopReason.USER and done.text == "" and done.failure is None


@pytest.mark.timeout(STOP_GUARD_S)
def test_stop_ends_the_model_list_a_reply_asks_for_first_when_the_server_never_answers(
    canned: CannedServer,
) -> None:
    canned.reply = Canned(silent=True)
    done = stopped_soon(RemoteBackend(RemoteConfig(canned.url, timeout_s=NEVER_S)))  # no model chosen: /models first
    assert done.stats.stop_reason is StopReason.USER


WRONG_TYPES = (
    b'data: {"choices": [{"delta": {"content": "Hi"}, "finish_reason": 5,'
    b' "logprobs": {"content": [{"token": "Hi", "logprob": "high", "top_logprobs": 5}, 7]}}],'
    b' "usage": {"prompt_tokens": "many", "completion_tokens": [1, 2], "total_tokens": null},'
    b' "timings": {"cache_n": 1e999, "prompt_per_second": {"nested": [null]}}}\n\n'
    b'data: {"choices": [{"delta": [], "finish_reason": "stop", "logprobs": "none"}],'
    b' "usage": null, "timings": "many"}\n\n' + DONE
)


@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"usage\.prompt_tokens .*'many' is not a count")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"usage\.completion_tokens .*\[1, 2\]")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"timings\.cache_n .*inf is not a count")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"timings\.prompt_per_second .*nested")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"Ignored timings .*'many' is not an object")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"finish_reason .*5 is not a string")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"delta .*\[\] is not an object")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"logprobs .*'none' is not an object")
@pytest.mark.expected_log("app.core.backends.logprobs", logging.WARNING, r"top_logprobs .*5 is not a list")
@pytest.mark.expected_log("app.core.backends.logprobs", logging.WARNING, r"entry .*7 has no token text")
def test_fields_of_the_wrong_type_are_ignored_with_a_log_line_and_the_reply_is_kept(canned: CannedServer) -> None:
    canned.reply = Canned(body=WRONG_TYPES)
    remote = RemoteBackend(RemoteConfig(canned.url))
    remote.select_model("m")
    try:
        events = list(remote.stream_chat(HELLO, SamplingParams(), threading.Event(), token_probabilities=True))
    finally:
        remote.close()
    done = events[-1]
    assert isinstance(done, RemoteReplyDone) and done.failure is None
    assert (done.text, done.stats.stop_reason) == ("Hi", StopReason.END_OF_TEXT)
    assert (done.stats.prompt_tokens, done.stats.completion_tokens, done.stats.cached_prompt_tokens) == (0, 1, 0)
    assert done.trace is not None and [step.text for step in done.trace.steps] == ["Hi"]


def test_a_redirect_is_reported_with_where_it_points(canned: CannedServer) -> None:
    error = failure_of(
        canned, Canned(status=307, headers={"Location": "https://elsewhere.example/v1/chat/completions"})
    )
    assert error.kind is RemoteErrorKind.REDIRECTED
    assert "redirected the request to https://elsewhere.example/v1/chat/completions (307)" in error.message
    assert "stopped sending" not in error.message


def test_a_server_that_ignores_max_tokens_is_cut_at_the_limit_and_named(canned: CannedServer) -> None:
    canned.reply = Canned(body=b"".join(piece(word) for word in ("one ", "two ", "three ", "four ")) + FINISH + DONE)
    remote = RemoteBackend(RemoteConfig(canned.url))
    remote.select_model("m")
    try:
        events = list(remote.stream_chat(HELLO, SamplingParams(max_tokens=2), threading.Event()))
    finally:
        remote.close()
    done = events[-1]
    assert isinstance(done, RemoteReplyDone)
    assert [event.text for event in events[:-1]] == ["one ", "two "]
    assert (done.text, done.stats.stop_reason, done.stats.completion_tokens) == ("one two ", StopReason.LENGTH, 2)
    assert "ignored the limit of 2 tokens" in done.notice


def test_a_server_that_keeps_to_max_tokens_is_not_cut(canned: CannedServer) -> None:
    canned.reply = Canned(body=piece("one ") + piece("two ") + FINISH + USAGE + DONE)
    remote = RemoteBackend(RemoteConfig(canned.url))
    remote.select_model("m")
    try:
        done = list(remote.stream_chat(HELLO, SamplingParams(max_tokens=2), threading.Event()))[-1]
    finally:
        remote.close()
    assert isinstance(done, RemoteReplyDone)
    assert (done.text, done.stats.stop_reason, done.notice) == ("one two ", StopReason.END_OF_TEXT, "")


@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"tokenize answer\.count .*inf is not a count")
def test_a_token_count_that_is_not_a_count_falls_back_to_an_estimate(canned: CannedServer) -> None:
    canned.reply = Canned(body=b'{"count": 1e999}')
    remote = RemoteBackend(RemoteConfig(canned.url, tokenize=TokenizeRoute.VLLM))
    try:
        counted = remote.count_tokens("hello there")
    finally:
        remote.close()
    assert not counted.exact and counted.tokens > 0


@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"model\.max_model_len .*'many'")
@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"meta from .*\[4096\] is not an")
def test_a_context_length_of_the_wrong_type_is_left_unknown(canned: CannedServer) -> None:
    canned.reply = Canned(body=b'{"data": [{"id": "m", "max_model_len": "many"}, {"id": "n", "meta": [4096]}]}')
    remote = RemoteBackend(RemoteConfig(canned.url))
    try:
        models = remote.list_models()
    finally:
        remote.close()
    assert [(model.id, model.context_length) for model in models] == [("m", None), ("n", None)]


@pytest.mark.timeout(STOP_GUARD_S)
def test_stop_ends_a_tls_request_the_server_never_answers(tls_canned: CannedServer, self_signed: Path) -> None:
    tls_canned.reply = Canned(silent=True)
    remote = RemoteBackend(RemoteConfig(tls_canned.url, ca_file=self_signed / "cert.pem", timeout_s=NEVER_S))
    remote.select_model("m")
    assert stopped_soon(remote).stats.stop_reason is StopReason.USER


@pytest.mark.timeout(STOP_GUARD_S)
def test_stop_ends_a_tls_handshake_the_server_never_answers() -> None:
    # The kernel completes the TCP handshake for a listening socket nobody accepts on; TLS never starts.
    with socket.create_server(("127.0.0.1", 0)) as listener:
        remote = RemoteBackend(RemoteConfig(f"https://127.0.0.1:{listener.getsockname()[1]}", timeout_s=NEVER_S))
        remote.select_model("m")
        done = stopped_soon(remote)
    assert done.stats.stop_reason is StopReason.USER


def test_a_refusal_nested_too_deep_to_read_is_still_a_refusal(canned: CannedServer) -> None:
    error = failure_of(canned, Canned(status=400, body=b'{"error": ' + b"[" * 100_000))
    assert error.kind is RemoteErrorKind.REJECTED and "refused the request (400)" in error.message


def test_a_model_list_nested_too_deep_to_read_is_not_a_model_list(canned: CannedServer) -> None:
    canned.reply = Canned(body=b'{"data": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    remote = RemoteBackend(RemoteConfig(canned.url))
    try:
        with pytest.raises(RemoteError) as raised:
            remote.list_models()
    finally:
        remote.close()
    assert raised.value.kind is RemoteErrorKind.MALFORMED_CHUNK


def test_a_huge_refusal_is_read_only_as_far_as_its_message_in_bounded_memory(canned: CannedServer) -> None:
    errors: list[RemoteError] = []

    def ask() -> None:
        errors.append(failure_of(canned, Canned(status=500, body=b'{"error": "', filler=b"x" * MIB, filler_count=50)))

    peak = peak_memory_of(ask)
    assert errors[0].kind is RemoteErrorKind.REJECTED and "refused the request (500)" in errors[0].message
    assert peak < 32 * MIB


def test_a_probe_answer_nested_too_deep_to_read_is_no_answer(canned: CannedServer) -> None:
    canned.reply = Canned(status=404)
    canned.replies_by_path["/v1/models"] = Canned(body=b'{"data": [{"id": "m"}]}')
    canned.replies_by_path["/health"] = Canned(body=b"[" * 100_000)
    found = probe_server(RemoteConfig(canned.url))
    assert found.kind is ServerKind.OTHER and [model.id for model in found.models] == ["m"]


def test_a_model_list_over_the_limit_is_refused_with_the_limit_named_in_bounded_memory(canned: CannedServer) -> None:
    canned.reply = Canned(body=b'{"data": [{"id": "', filler=b"m" * MIB, filler_count=50)
    remote = RemoteBackend(RemoteConfig(canned.url))
    errors: list[RemoteError] = []

    def ask() -> None:
        with pytest.raises(RemoteError) as raised:
            remote.list_models()
        errors.append(raised.value)

    try:
        peak = peak_memory_of(ask)
    finally:
        remote.close()
    assert errors[0].kind is RemoteErrorKind.MALFORMED_CHUNK and "more than 16.0 MiB" in errors[0].message
    assert peak < 48 * MIB


def test_a_token_list_over_the_limit_falls_back_to_an_estimate_in_bounded_memory(canned: CannedServer) -> None:
    canned.reply = Canned(body=b'{"tokens": [', filler=b"1," * (MIB // 2), filler_count=50)
    remote = RemoteBackend(RemoteConfig(canned.url, tokenize=TokenizeRoute.LLAMA_SERVER))
    counts = []
    try:
        peak = peak_memory_of(lambda: counts.append(remote.count_tokens("hello there")))
    finally:
        remote.close()
    assert not counts[0].exact
    assert peak < 48 * MIB
