"""The remote backend against a real OpenAI-compatible server nobody here wrote (llama_cpp.server)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import openai
import pytest

from app.bench.llama_server import LlamaServer, free_port
from app.core.backends.remote import RemoteBackend, RemoteConfig, RemoteError, RemoteErrorKind, RemoteReplyDone
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.stats import StopReason
from app.core.types.tools import ToolSpec

GREEDY = SamplingParams(temperature=0.0, seed=7, max_tokens=24)
LONG = SamplingParams(temperature=0.0, seed=7, max_tokens=1500)
HELLO = [ChatMessage("user", "Say hello in one short sentence.")]
COUNT = [ChatMessage("user", "Count from 1 to 500, one number per line.")]
ASK_TIME = [ChatMessage("user", "What time is it in Paris?")]
TIME_SCHEMA = {
    "type": "object",
    "properties": {"timezone": {"type": "string", "maxLength": 40}},
    "required": ["timezone"],
    "additionalProperties": False,
}
TIME_TOOL = ToolSpec("get_current_time", "The current time in a IANA time zone.", json.dumps(TIME_SCHEMA))


@pytest.fixture
def backend(llama_server: LlamaServer) -> Iterator[RemoteBackend]:
    remote = RemoteBackend(RemoteConfig(llama_server.url))
    yield remote
    remote.close()


def split(events: Iterator[ReplyEvent]) -> tuple[list[TokenPiece], RemoteReplyDone]:
    pieces: list[TokenPiece] = []
    for event in events:
        if isinstance(event, ReplyDone):
            assert isinstance(event, RemoteReplyDone)
            return pieces, event
        pieces.append(event)
    raise AssertionError("the stream ended without a ReplyDone")


def test_lists_the_server_models(backend: RemoteBackend, starter_model) -> None:
    assert [model.id for model in backend.list_models()] == [str(starter_model)]


def test_a_greedy_streamed_reply_is_the_servers_whole_reply(backend: RemoteBackend, llama_server: LlamaServer) -> None:
    # llama_cpp.server's first reply on a fresh context differs from the same request later (it
    # evaluates the prompt in another batch shape then): warm it up, then compare like with like.
    split(backend.stream_chat(HELLO, GREEDY, threading.Event()))
    pieces, done = split(backend.stream_chat(HELLO, GREEDY, threading.Event()))

    client = openai.OpenAI(base_url=f"{llama_server.url}/v1", api_key="unused")
    whole = client.chat.completions.create(
        model=backend.model or "",
        messages=[{"role": "user", "content": HELLO[0].content}],
        temperature=0.0,
        seed=7,
        max_tokens=24,
    )
    client.close()
    assert done.text == "".join(piece.text for piece in pieces) == whole.choices[0].message.content
    assert done.text
    assert done.failure is None
    assert done.stats.stop_reason in (StopReason.END_OF_TEXT, StopReason.LENGTH)
    assert done.stats.completion_tokens > 0
    assert done.stats.time_to_first_token_s > 0


def test_stop_ends_the_reply_and_keeps_the_text_so_far(backend: RemoteBackend) -> None:
    stop = threading.Event()
    pieces: list[TokenPiece] = []
    done: ReplyDone | None = None
    for event in backend.stream_chat(COUNT, LONG, stop):
        if isinstance(event, ReplyDone):
            done = event
        else:
            pieces.append(event)
            stop.set()

    assert done is not None
    assert done.stats.stop_reason is StopReason.USER
    assert done.text == "".join(piece.text for piece in pieces)
    assert done.text
    assert done.stats.completion_tokens < LONG.max_tokens


def test_the_server_still_answers_after_a_stopped_reply(backend: RemoteBackend) -> None:
    stop = threading.Event()
    for _piece in backend.stream_chat(COUNT, LONG, stop):
        stop.set()
    _, done = split(backend.stream_chat(HELLO, GREEDY, threading.Event()))
    assert done.text


def test_a_forced_tool_call_comes_back_structured_and_the_model_reads_its_result(backend: RemoteBackend) -> None:
    """llama_cpp.server holds a named tool_choice to the tool's schema with a grammar and streams the call
    with its id and name sent again beside every fragment of the arguments (under `auto` it leaves the
    tools to the template, and SmolLM2's writes none: the model answers in text)."""
    stop = threading.Event()
    _pieces, called = split(backend.stream_chat(ASK_TIME, GREEDY, stop, tools=(TIME_TOOL,), forced=(TIME_TOOL.name,)))
    [call] = called.tool_calls
    assert call.name == "get_current_time" and call.id.startswith("call_")
    assert set(call.parsed_arguments) == {"timezone"}

    result = json.dumps({"timezone": "Europe/Paris", "datetime": "2026-12-04T12:00:00+01:00"})
    follow_up = [
        *ASK_TIME,
        ChatMessage("assistant", "", "", (call,)),
        ChatMessage("tool", result, tool_call_id=call.id),
    ]
    pieces, answered = split(backend.stream_chat(follow_up, GREEDY, stop, tools=(TIME_TOOL,)))
    assert answered.failure is None and answered.text == "".join(piece.text for piece in pieces) != ""
    assert answered.tool_calls == ()


def test_sampling_fields_the_server_does_not_take_are_named(llama_server: LlamaServer) -> None:
    plain = RemoteBackend(RemoteConfig(llama_server.url))
    llama = RemoteBackend(RemoteConfig(llama_server.url, llama_server_fields=True))
    try:
        assert plain.unsent_params(SamplingParams()) == ("top_k", "min_p", "repeat_penalty", "repeat_last_n")
        assert llama.unsent_params(SamplingParams()) == ("repeat_last_n",)
        assert llama.unsent_params(SamplingParams(thinking=False)) == ("repeat_last_n", "thinking")
        _, done = split(llama.stream_chat(HELLO, GREEDY, threading.Event()))
        assert done.text
    finally:
        plain.close()
        llama.close()


def test_a_port_with_nothing_on_it_is_unreachable() -> None:
    remote = RemoteBackend(RemoteConfig(f"http://127.0.0.1:{free_port()}"))
    remote.select_model("any")
    try:
        with pytest.raises(RemoteError) as listing:
            remote.list_models()
        with pytest.raises(RemoteError) as reply:
            list(remote.stream_chat(HELLO, GREEDY, threading.Event()))
    finally:
        remote.close()
    assert listing.value.kind is RemoteErrorKind.UNREACHABLE
    assert reply.value.kind is RemoteErrorKind.UNREACHABLE
    assert "is the server running?" in reply.value.message


def test_a_wrong_api_key_is_unauthorized_and_the_right_one_works(keyed_llama_server: LlamaServer) -> None:
    wrong = RemoteBackend(RemoteConfig(keyed_llama_server.url, api_key="wrong"))
    right = RemoteBackend(RemoteConfig(keyed_llama_server.url, api_key="secret"))
    wrong.select_model("any")
    try:
        with pytest.raises(RemoteError) as listing:
            wrong.list_models()
        with pytest.raises(RemoteError) as reply:
            list(wrong.stream_chat(HELLO, GREEDY, threading.Event()))
        assert right.list_models()
    finally:
        wrong.close()
        right.close()
    assert listing.value.kind is reply.value.kind is RemoteErrorKind.UNAUTHORIZED
    assert "check the key" in reply.value.message
    assert "wrong" not in reply.value.message


def test_the_api_key_is_not_in_the_configs_repr() -> None:
    assert "secret" not in repr(RemoteConfig("http://127.0.0.1:1", api_key="secret"))


def test_a_server_killed_mid_reply_cuts_the_stream_and_the_text_so_far_is_kept(own_llama_server: LlamaServer) -> None:
    remote = RemoteBackend(RemoteConfig(own_llama_server.url))
    pieces: list[TokenPiece] = []
    done: RemoteReplyDone | None = None
    try:
        for event in remote.stream_chat(COUNT, LONG, threading.Event()):
            if isinstance(event, RemoteReplyDone):
                done = event
            else:
                if not pieces:
                    own_llama_server.kill()
                pieces.append(event)  # type: ignore[arg-type]
    finally:
        remote.close()

    assert done is not None
    assert done.stats.stop_reason is StopReason.ERROR
    assert done.failure is not None and done.failure.kind is RemoteErrorKind.STREAM_CUT
    assert done.stats.error == done.failure.message
    assert done.text == "".join(piece.text for piece in pieces)
    assert done.text
