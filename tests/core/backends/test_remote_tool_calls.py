"""Tools offered to a server's model: what the request carries, the calls put back together from the
streamed deltas however they are cut, and a server that refuses tools (a scripted loopback server)."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.backends.openai_tools import ToolCallDeltas
from app.core.backends.remote import RemoteBackend, RemoteConfig, RemoteError, RemoteErrorKind, RemoteReplyDone
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyEvent, TokenPiece
from app.core.types.stats import StopReason
from app.core.types.tools import ToolCall, ToolSpec
from tests.helpers.canned_server import DONE, FINISH, USAGE, Canned, CannedServer, piece

ASK = [ChatMessage("user", "What time is it in Zürich, and roll two dice?")]
TIME = ToolSpec(
    "get_current_time",
    "The current time in a IANA time zone.",
    json.dumps({"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}),
)
DICE = ToolSpec("roll_dice", "Roll dice.", json.dumps({"type": "object", "properties": {"count": {"type": "integer"}}}))
CLOCK = ToolSpec("clock", "The time here.")
TIME_ARGUMENTS = '{"timezone": "Europe/Z\\u00fcrich", "note": "say \\"now\\""}'


def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    event = {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + json.dumps(event).encode() + b"\n\n"


def call_delta(index: int, **parts: str) -> dict[str, Any]:
    """A delta of one call: `id` and `type` beside `name` and `arguments` (the function's)."""
    entry: dict[str, Any] = {"index": index}
    entry.update({key: parts[key] for key in ("id", "type") if key in parts})
    function = {key: parts[key] for key in ("name", "arguments") if key in parts}
    if function:
        entry["function"] = function
    return {"tool_calls": [entry]}


# Two parallel calls as vLLM and llama-server stream them: text first, then each call's id and name,
# then its arguments in fragments cut inside a key, a \u escape and a \" escape, the two calls interleaved.
PARALLEL_STREAM = (
    chunk({"role": "assistant", "content": "Let me check. "})
    + chunk(call_delta(0, id="call_a", type="function", name="get_current_time", arguments=""))
    + chunk(call_delta(0, arguments='{"time'))
    + chunk(call_delta(1, id="call_b", type="function", name="roll_dice", arguments='{"co'))
    + chunk(call_delta(0, arguments='zone": "Europe/Z\\u00'))
    + chunk(call_delta(1, arguments='unt": 2}'))
    + chunk(call_delta(0, arguments='fcrich", "note": "say \\"no'))
    + chunk(call_delta(0, arguments='w\\""}'))
    + chunk({}, "tool_calls")
    + USAGE
    + DONE
)


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


def reply_with_tools(
    canned: CannedServer,
    reply: Canned,
    tools: tuple[ToolSpec, ...] = (TIME, DICE),
    forced: tuple[str, ...] = (),
    messages: list[ChatMessage] = ASK,
    max_tokens: int = 0,
) -> tuple[list[TokenPiece], RemoteReplyDone]:
    canned.reply = reply
    remote = RemoteBackend(RemoteConfig(canned.url, timeout_s=30))
    remote.select_model("m")
    try:
        params = SamplingParams(max_tokens=max_tokens)
        events: list[ReplyEvent] = list(
            remote.stream_chat(messages, params, threading.Event(), tools=tools, forced=forced)
        )
    finally:
        remote.close()
    *pieces, done = events
    assert isinstance(done, RemoteReplyDone)
    return [p for p in pieces if isinstance(p, TokenPiece)], done


def sent(canned: CannedServer, number: int = -1) -> dict[str, Any]:
    body = json.loads(canned.bodies[number])
    assert isinstance(body, dict)
    return body


def test_streamed_call_deltas_cut_anywhere_come_back_as_the_replys_calls(canned: CannedServer) -> None:
    pieces, done = reply_with_tools(canned, Canned(body=PARALLEL_STREAM))

    assert done.tool_calls == (
        ToolCall("call_a", "get_current_time", TIME_ARGUMENTS),
        ToolCall("call_b", "roll_dice", '{"count": 2}'),
    )
    assert done.tool_calls[0].parsed_arguments == {"timezone": "Europe/Zürich", "note": 'say "now"'}
    assert done.text == "Let me check. " == "".join(p.text for p in pieces)  # the calls are not text
    assert done.stats.stop_reason is StopReason.END_OF_TEXT  # finish_reason tool_calls: the model's turn ended
    assert done.failure is None


def test_the_tools_go_in_the_request_and_the_model_chooses_when_none_is_forced(canned: CannedServer) -> None:
    reply_with_tools(canned, Canned(body=piece("Noon.") + FINISH + DONE))

    body = sent(canned)
    assert body["tools"] == [TIME.as_openai(), DICE.as_openai()]
    assert body["tools"][0]["function"]["parameters"]["required"] == ["timezone"]
    assert "tool_choice" not in body  # OpenAI's default with tools is auto: a server that lacks the field is fine


def test_one_forced_tool_is_named_in_tool_choice(canned: CannedServer) -> None:
    reply_with_tools(canned, Canned(body=PARALLEL_STREAM), forced=("roll_dice",))

    body = sent(canned)
    assert body["tool_choice"] == {"type": "function", "function": {"name": "roll_dice"}}
    assert [tool["function"]["name"] for tool in body["tools"]] == ["get_current_time", "roll_dice"]


def test_several_forced_tools_are_required_and_only_they_are_offered(canned: CannedServer) -> None:
    reply_with_tools(canned, Canned(body=PARALLEL_STREAM), tools=(TIME, DICE, CLOCK), forced=("clock", "roll_dice"))

    body = sent(canned)
    assert body["tool_choice"] == "required"
    assert [tool["function"]["name"] for tool in body["tools"]] == ["roll_dice", "clock"]


def test_a_reply_without_tools_offered_sends_no_tool_fields(canned: CannedServer) -> None:
    reply_with_tools(canned, Canned(body=piece("Hi") + FINISH + DONE), tools=())
    assert not {"tools", "tool_choice"} & set(sent(canned))


def test_earlier_calls_and_their_results_go_back_in_openais_shape(canned: CannedServer) -> None:
    calls = (ToolCall("call_a", "get_current_time", '{"timezone": "UTC"}'), ToolCall("call_b", "roll_dice"))
    history = [
        *ASK,
        ChatMessage("assistant", "", "thought about it", calls),
        ChatMessage("tool", '{"datetime": "12:00"}', tool_call_id="call_a"),
        ChatMessage("tool", "4 and 2", tool_call_id="call_b"),
    ]
    reply_with_tools(canned, Canned(body=piece("Noon; 4 and 2.") + FINISH + DONE), messages=history)

    assert sent(canned)["messages"][1:] == [
        {
            "role": "assistant",
            "content": "",  # a reply that only called; its reasoning stays here
            "tool_calls": [
                {
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "get_current_time", "arguments": '{"timezone": "UTC"}'},
                },
                {"id": "call_b", "type": "function", "function": {"name": "roll_dice", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_a", "content": '{"datetime": "12:00"}'},
        {"role": "tool", "tool_call_id": "call_b", "content": "4 and 2"},
    ]


def test_a_whole_json_reply_brings_its_calls_too(canned: CannedServer) -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_z", "type": "function", "function": {"name": "roll_dice", "arguments": '{"count": 3}'}}
        ],
    }
    whole = {"choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}
    _pieces, done = reply_with_tools(canned, Canned(body=json.dumps(whole).encode(), content_type="application/json"))
    assert done.tool_calls == (ToolCall("call_z", "roll_dice", '{"count": 3}'),)


def test_a_call_cut_short_by_the_length_limit_is_no_call(canned: CannedServer) -> None:
    body = chunk(call_delta(0, id="call_a", name="get_current_time", arguments='{"timez')) + chunk({}, "length") + DONE
    _pieces, done = reply_with_tools(canned, Canned(body=body))
    assert done.stats.stop_reason is StopReason.LENGTH
    assert done.tool_calls == ()


def test_call_deltas_count_against_max_tokens(canned: CannedServer) -> None:
    _pieces, done = reply_with_tools(canned, Canned(body=PARALLEL_STREAM), max_tokens=3)
    assert done.stats.stop_reason is StopReason.LENGTH and done.tool_calls == ()
    assert "ignored the limit of 3 tokens" in done.notice


def test_a_server_that_refuses_the_tools_is_asked_again_without_them_and_named(canned: CannedServer) -> None:
    refusal = {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}
    canned.first_replies = [Canned(status=500, body=json.dumps(refusal).encode(), content_type="application/json")]
    pieces, done = reply_with_tools(canned, Canned(body=piece("It is ") + piece("noon.") + FINISH + DONE))

    assert done.text == "It is noon." == "".join(p.text for p in pieces)  # the chat goes on, nothing lost
    assert done.failure is None and done.tool_calls == ()
    assert done.notice == (
        f"{canned.url}/v1 refused the tools (500: tools param requires --jinja flag); "
        "this reply was written without them."
    )
    first, again = sent(canned, 0), sent(canned, 1)
    assert "tools" in first and not {"tools", "tool_choice"} & set(again)
    assert again["messages"] == first["messages"]


def test_a_refusal_that_does_not_name_tools_is_reported_and_not_retried(canned: CannedServer) -> None:
    refusal = {"error": {"message": "the request exceeds the available context size"}}
    canned.reply = Canned(status=400, body=json.dumps(refusal).encode(), content_type="application/json")
    remote = RemoteBackend(RemoteConfig(canned.url, timeout_s=30))
    remote.select_model("m")
    try:
        with pytest.raises(RemoteError) as raised:
            list(remote.stream_chat(ASK, SamplingParams(), threading.Event(), tools=(TIME,)))
    finally:
        remote.close()
    assert raised.value.kind is RemoteErrorKind.REJECTED
    assert "exceeds the available context size" in raised.value.message
    assert len(canned.bodies) == 1


class TestDeltasAsServersSendThem:
    def test_a_delta_without_an_index_continues_the_last_call(self) -> None:
        deltas = ToolCallDeltas()
        deltas.feed([{"id": "call_a", "function": {"name": "clock", "arguments": '{"a"'}}])
        deltas.feed([{"function": {"arguments": ": 1}"}}])
        assert deltas.calls() == (ToolCall("call_a", "clock", '{"a": 1}'),)

    def test_whole_calls_all_sent_at_index_0_are_calls_of_their_own(self) -> None:
        deltas = ToolCallDeltas()
        deltas.feed([{"index": 0, "id": "call_a", "function": {"name": "clock", "arguments": "{}"}}])
        deltas.feed([{"index": 0, "id": "call_b", "function": {"name": "roll_dice", "arguments": '{"count": 1}'}}])
        assert [(call.id, call.name) for call in deltas.calls()] == [("call_a", "clock"), ("call_b", "roll_dice")]

    def test_an_id_and_name_sent_again_on_every_delta_are_not_doubled(self) -> None:
        deltas = ToolCallDeltas()
        for fragment in ('{"count"', ": 2", "}"):
            deltas.feed([{"index": 0, "id": "call_a", "function": {"name": "roll_dice", "arguments": fragment}}])
        assert deltas.calls() == (ToolCall("call_a", "roll_dice", '{"count": 2}'),)

    def test_arguments_sent_as_an_object_are_its_json_text(self) -> None:
        deltas = ToolCallDeltas()
        deltas.feed([{"index": 0, "id": "c", "function": {"name": "clock", "arguments": {"zone": "Zürich"}}}])
        assert deltas.calls()[0].parsed_arguments == {"zone": "Zürich"}

    def test_a_call_without_an_id_gets_one_and_without_arguments_has_none(self) -> None:
        deltas = ToolCallDeltas()
        deltas.feed([{"index": 0, "function": {"name": "clock"}}])
        [call] = deltas.calls()
        assert call.id.startswith("call_") and call.arguments == "{}"

    @pytest.mark.expected_log("app.core.backends.openai_tools", logging.WARNING, "without a name")
    def test_a_call_without_a_name_is_left_out_with_a_log_line(self, caplog: pytest.LogCaptureFixture) -> None:
        deltas = ToolCallDeltas()
        deltas.feed([{"index": 0, "id": "call_a", "function": {"arguments": "{}"}}])
        deltas.feed([{"index": 1, "id": "call_b", "function": {"name": "clock", "arguments": "{}"}}])
        with caplog.at_level(logging.WARNING):
            assert [call.id for call in deltas.calls()] == ["call_b"]
        assert "without a name" in caplog.text

    @pytest.mark.expected_log("app.core.backends.openai_tools", logging.WARNING, "Ignored .* from the server")
    def test_fields_of_the_wrong_type_are_ignored_with_a_log_line(self, caplog: pytest.LogCaptureFixture) -> None:
        deltas = ToolCallDeltas()
        with caplog.at_level(logging.WARNING):
            deltas.feed("not a list")
            deltas.feed([7, {"index": "zero", "id": 5, "function": {"name": "clock", "arguments": 12}}])
        assert deltas.calls()[0].name == "clock"
        ignored = [record.getMessage().split(" from the server")[0] for record in caplog.records]
        assert ignored == [
            "Ignored a delta's tool_calls",
            "Ignored a tool call",
            "Ignored a tool call's id",
            "Ignored a tool call's index",
            "Ignored a tool call's arguments",
        ]
