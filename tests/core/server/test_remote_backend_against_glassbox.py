"""Glassbox's own remote backend (app/core/backends/remote.py) talking to Glassbox's server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from app.core.backends.remote import RemoteBackend, RemoteConfig, RemoteError, RemoteErrorKind, RemoteReplyDone
from app.core.inference.sampling import GREEDY
from app.core.server.request_log import CLIENT_CLOSED
from app.core.server.server import ApiServer
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece
from app.core.types.stats import StopReason
from tests.core.server.conftest import N_CTX, Serve
from tests.core.server.test_serving import wait_for

HELLO = [ChatMessage("user", "Say hello in one short sentence.")]


@pytest.fixture
def remote(server: ApiServer) -> Iterator[RemoteBackend]:
    backend = RemoteBackend(RemoteConfig(server.base_url, llama_server_fields=True))
    yield backend
    backend.close()


def reply(backend: RemoteBackend, messages: list[ChatMessage], max_tokens: int) -> RemoteReplyDone:
    events = list(backend.stream_chat(messages, replace(GREEDY, max_tokens=max_tokens), threading.Event()))
    done = events[-1]
    assert isinstance(done, RemoteReplyDone)
    assert done.text == "".join(event.text for event in events[:-1] if isinstance(event, TokenPiece))
    return done


def test_it_lists_the_model_with_its_context_length(remote: RemoteBackend) -> None:
    (model,) = remote.list_models()
    assert model.context_length == N_CTX


def test_a_streamed_reply_arrives_with_the_servers_counts(remote: RemoteBackend) -> None:
    first = reply(remote, HELLO, 16)
    assert first.failure is None and first.text
    assert first.stats.stop_reason in (StopReason.END_OF_TEXT, StopReason.LENGTH)
    assert first.stats.prompt_tokens > 0 and first.stats.completion_tokens > 0
    assert remote.unsent_params(GREEDY) == ("repeat_last_n",)  # top_k, min_p and repeat_penalty are honoured

    follow_up = reply(remote, [*HELLO, ChatMessage("assistant", first.text), ChatMessage("user", "Again.")], 8)
    assert follow_up.stats.cached_prompt_tokens >= first.stats.prompt_tokens  # llama-server's timings.cache_n
    assert follow_up.usage["prompt_tokens_details"]["cached_tokens"] == follow_up.stats.cached_prompt_tokens


def test_stop_ends_the_reply_and_the_server_stops_generating(remote: RemoteBackend, server: ApiServer) -> None:
    stop = threading.Event()
    done: ReplyDone | None = None
    counting = [ChatMessage("user", "Count from 1 to 500, one number per line.")]
    for event in remote.stream_chat(counting, replace(GREEDY, max_tokens=1500), stop):
        if isinstance(event, ReplyDone):
            done = event
        elif event.text:
            stop.set()
    assert done is not None and done.stats.stop_reason is StopReason.USER and done.text
    record = wait_for(lambda: (r := server.request_log.records()[-1]).status == CLIENT_CLOSED and r, "a 499 record")
    assert record.completion_tokens < 100


def test_a_wrong_key_is_the_unauthorized_kind(serve: Serve) -> None:
    keyed = serve(api_key="the-right-key-123")
    backend = RemoteBackend(RemoteConfig(keyed.base_url, api_key="the-wrong-key-123"))
    try:
        with pytest.raises(RemoteError) as refused:
            backend.list_models()
        assert refused.value.kind is RemoteErrorKind.UNAUTHORIZED
    finally:
        backend.close()
