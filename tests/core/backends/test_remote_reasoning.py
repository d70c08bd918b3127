"""A thinking model's reply from a server, in each shape servers send it: the reasoning comes apart
from the answer, with its token count and time, and past reasoning is never sent back."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator

import pytest

from app.core.backends.remote import RemoteBackend, RemoteConfig, RemoteReplyDone
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import StopReason
from tests.helpers.canned_server import DONE, FINISH, Canned, CannedServer, piece
from tests.helpers.reasoning_streams import (
    ANSWER,
    ANSWER_TEXT,
    COMPLETION_TOKENS,
    COUNTS_REASONING,
    REASONING,
    REASONING_TEXT,
    SERVER_REASONING_TOKENS,
    STREAMS,
    llama_server_whole,
)

HELLO = [ChatMessage("user", "What is 2 + 2?")]
# Where a server does not count them: each reasoning delta, and for raw text each delta before the
# answer (the markers and the blank lines around them are tokens the model wrote while thinking).
COUNTED_HERE = {"llama-server reasoning_format none": 9}


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


def events_from(
    canned: CannedServer, reply: Canned, messages: list[ChatMessage] = HELLO, max_tokens: int = 0
) -> list[ReplyEvent]:
    canned.reply = reply
    remote = RemoteBackend(RemoteConfig(canned.url, timeout_s=30))
    remote.select_model("m")
    try:
        return list(remote.stream_chat(messages, SamplingParams(max_tokens=max_tokens), threading.Event()))
    finally:
        remote.close()


def split(events: list[ReplyEvent]) -> tuple[list[TokenPiece], RemoteReplyDone]:
    *pieces, done = events
    assert isinstance(done, RemoteReplyDone) and all(isinstance(p, TokenPiece) for p in pieces)
    return [p for p in pieces if isinstance(p, TokenPiece)], done


def text_of(pieces: list[TokenPiece], part: ReplyPart) -> str:
    return "".join(p.text for p in pieces if p.part is part)


@pytest.mark.parametrize("server", list(STREAMS))
def test_each_servers_shape_streams_the_reasoning_apart_from_the_answer(canned: CannedServer, server: str) -> None:
    pieces, done = split(events_from(canned, Canned(body=STREAMS[server]())))
    assert text_of(pieces, ReplyPart.REASONING).strip() == REASONING_TEXT
    assert text_of(pieces, ReplyPart.ANSWER) == ANSWER_TEXT
    first_answer = next(i for i, p in enumerate(pieces) if p.part is ReplyPart.ANSWER)
    assert all(p.part is ReplyPart.ANSWER for p in pieces[first_answer:])  # the reasoning comes first, whole
    assert (done.text, done.reasoning.strip()) == (ANSWER_TEXT, REASONING_TEXT)
    assert "<think>" not in done.text + done.reasoning and "</think>" not in done.text + done.reasoning
    assert (done.failure, done.stats.stop_reason) == (None, StopReason.END_OF_TEXT)


@pytest.mark.parametrize("server", list(STREAMS))
def test_the_reasoning_tokens_are_the_servers_count_or_else_counted_as_they_arrive(
    canned: CannedServer, server: str
) -> None:
    _, done = split(events_from(canned, Canned(body=STREAMS[server]())))
    expected = SERVER_REASONING_TOKENS if server in COUNTS_REASONING else COUNTED_HERE.get(server, len(REASONING))
    assert done.stats.reasoning_tokens == expected
    assert done.stats.completion_tokens == COMPLETION_TOKENS  # the server's own count, reasoning included
    assert 0 < done.stats.reasoning_s <= done.stats.total_s


def test_a_reply_without_reasoning_has_no_reasoning_tokens_or_time(canned: CannedServer) -> None:
    _, done = split(events_from(canned, Canned(body=piece("\\n") + piece("Hi") + FINISH + DONE)))
    assert (done.text, done.reasoning) == ("\nHi", "")  # a blank line before the answer is kept, not a block
    assert (done.stats.reasoning_tokens, done.stats.reasoning_s) == (0, 0.0)


def test_a_whole_json_reply_to_a_stream_request_is_read_with_its_reasoning(canned: CannedServer) -> None:
    pieces, done = split(events_from(canned, Canned(body=llama_server_whole(), content_type="application/json")))
    assert [(p.part, p.text) for p in pieces] == [
        (ReplyPart.REASONING, REASONING_TEXT),
        (ReplyPart.ANSWER, ANSWER_TEXT),
    ]
    assert (done.text, done.reasoning, done.stats.stop_reason) == (ANSWER_TEXT, REASONING_TEXT, StopReason.END_OF_TEXT)
    assert done.stats.completion_tokens == COMPLETION_TOKENS


def test_a_think_block_the_length_limit_cut_open_is_reasoning(canned: CannedServer) -> None:
    body = piece("<think>") + piece("Let me") + piece(" see") + piece("<") + FINISH.replace(b"stop", b"length") + DONE
    pieces, done = split(events_from(canned, Canned(body=body)))
    assert (done.text, done.reasoning, done.stats.stop_reason) == ("", "Let me see<", StopReason.LENGTH)
    assert text_of(pieces, ReplyPart.REASONING) == "Let me see<"  # what was held back as a maybe-marker too


def test_a_think_tag_in_the_content_of_a_server_that_splits_the_reasoning_is_answer_text(
    canned: CannedServer,
) -> None:
    delta = b'data: {"choices": [{"index": 0, "delta": {"reasoning_content": "hmm"}, "finish_reason": null}]}\n\n'
    _, done = split(events_from(canned, Canned(body=delta + piece("<think>x</think> is a tag") + FINISH + DONE)))
    assert (done.reasoning, done.text) == ("hmm", "<think>x</think> is a tag")


def test_the_max_tokens_limit_counts_the_reasoning_too(canned: CannedServer) -> None:
    pieces, done = split(events_from(canned, Canned(body=STREAMS["llama-server"]()), max_tokens=len(REASONING) + 1))
    assert [p.text for p in pieces] == [*REASONING, ANSWER[0]]
    assert done.stats.stop_reason is StopReason.LENGTH


@pytest.mark.expected_log("app.core.backends.remote", logging.WARNING, r"delta's reasoning_content .*7 is not a text")
def test_a_reasoning_field_of_the_wrong_type_is_ignored_with_a_log_line(canned: CannedServer) -> None:
    delta = b'data: {"choices": [{"index": 0, "delta": {"reasoning_content": 7, "content": "Hi"}}]}\n\n'
    _, done = split(events_from(canned, Canned(body=delta + FINISH + DONE)))
    assert (done.text, done.reasoning) == ("Hi", "")


def test_past_reasoning_is_not_sent_back_to_the_server(canned: CannedServer) -> None:
    history = [
        ChatMessage("user", "What is 2 + 2?"),
        ChatMessage("assistant", ANSWER_TEXT, reasoning=REASONING_TEXT),
        ChatMessage("user", "And 3 + 3?"),
    ]
    events_from(canned, Canned(body=STREAMS["llama-server"]()), messages=history)
    sent = json.loads(canned.bodies[-1])["messages"]
    assert sent == [{"role": m.role, "content": m.content} for m in history]
    assert REASONING_TEXT not in canned.bodies[-1].decode()


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning", "thinking"])
def test_each_reasoning_field_name_is_read(canned: CannedServer, field: str) -> None:
    delta = b'data: {"choices": [{"index": 0, "delta": {"%s": "hmm"}, "finish_reason": null}]}\n\n' % field.encode()
    _, done = split(events_from(canned, Canned(body=delta + piece("Hi") + FINISH + DONE)))
    assert (done.reasoning, done.text) == ("hmm", "Hi")


def test_stop_in_the_middle_of_the_reasoning_keeps_what_was_reasoned(canned: CannedServer) -> None:
    canned.reply = Canned(body=STREAMS["llama-server reasoning_format none"]())
    remote = RemoteBackend(RemoteConfig(canned.url, timeout_s=30))
    remote.select_model("m")
    stop = threading.Event()
    events: list[ReplyEvent] = []
    try:
        for event in remote.stream_chat(HELLO, SamplingParams(), stop):
            events.append(event)
            if isinstance(event, TokenPiece) and event.text == REASONING[1]:
                stop.set()
    finally:
        remote.close()
    pieces, done = split(events)
    assert (done.reasoning.strip(), done.text) == ("".join(REASONING[:2]), "")
    assert done.stats.stop_reason is StopReason.USER
    assert all(p.part is ReplyPart.REASONING for p in pieces)
