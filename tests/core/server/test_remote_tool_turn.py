"""A turn with tools on a server's model: Glassbox's remote backend talking to Glassbox's own API server.

The server speaks OpenAI tool calling with the starter model (app/core/server/tool_calling.py): a
forced choice goes to it as the request's `tool_choice`, and the call comes back structured, read by
the server, not parsed here. It runs on the real `mcp-server-time` after approval, its result goes
back as a `tool` message with the call's id, and the model answers; the server takes that follow-up
only if it is in OpenAI's shape (it refuses a tool message that answers no call).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from app.core.backends.remote import RemoteBackend, RemoteConfig
from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.inference.sampling import GREEDY
from app.core.server.server import ApiServer
from app.core.support.stop_flag import StopFlag
from app.core.tools.manager import McpManager, Timeouts
from app.core.turn.steps import PlanStep, TurnState
from app.core.turn.tool_rounds import (
    CALL,
    READ,
    Approval,
    CallRecord,
    CallRequest,
    ToolOffer,
    ToolPermissions,
    ToolRoundsStep,
    ToolSettings,
    offered_tools,
)
from app.core.turn.turn import Turn
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from tests.core.server.conftest import N_CTX
from tests.core.tools.conftest import python_server
from tests.core.turn.scripted import Recorder, Said

PARAMS = replace(GREEDY, max_tokens=48)


@pytest.fixture
def remote(server: ApiServer) -> Iterator[RemoteBackend]:
    backend = RemoteBackend(RemoteConfig(server.base_url))
    yield backend
    backend.close()


@pytest.fixture
def manager() -> Iterator[McpManager]:
    manager = McpManager(
        [python_server("time", "mcp-server-time", "--local-timezone", "UTC")],
        timeouts=Timeouts(start_s=30.0, list_s=10.0, call_s=10.0),
    )
    yield manager
    manager.close()


def plan(request: PlanRequest) -> PlanResult:
    messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
    return PlanResult(request, WindowPlan(messages, ("u1",), (), 0, 0, N_CTX, 48, WindowPolicy.ROLLING))


def run_turn(
    remote: RemoteBackend, manager: McpManager, forced: tuple[str, ...], ask: Callable[[CallRequest], Approval]
) -> tuple[Recorder, list[CallRecord], list[tuple[tuple[ChatMessage, ...], ToolOffer, ReplyDone]]]:
    """The turn, with each reply's conversation, offer and ReplyDone as the server wrote it."""
    written: list[tuple[tuple[ChatMessage, ...], ToolOffer, ReplyDone]] = []

    def generate(
        messages: tuple[ChatMessage, ...], offer: ToolOffer, stop: StopFlag, on_event: Callable[[ReplyEvent], None]
    ) -> None:
        for event in remote.stream_chat(messages, PARAMS, stop, tools=offer.tools, forced=offer.forced):
            if isinstance(event, ReplyDone):
                written.append((messages, offer, event))
            on_event(event)

    recorder, records = Recorder(), list[CallRecord]()
    settings = ToolSettings(None, forced=forced, max_rounds=2)  # None: the server reads the calls
    rounds = ToolRoundsStep(
        generate, manager, offered_tools(manager.tools("time")), ToolPermissions(ask=ask), settings, records.append
    )
    request = PlanRequest("reply", "", (Said("u1", "user", "What time is it in Paris?"),), 48)
    Turn([PlanStep(plan), rounds], TurnState(request), recorder).run()
    return recorder, records, written


def test_a_forced_call_comes_back_structured_runs_and_its_result_goes_back_for_the_answer(
    remote: RemoteBackend, manager: McpManager
) -> None:
    asked: list[CallRequest] = []

    def allow(request: CallRequest) -> Approval:
        asked.append(request)
        return Approval.ONCE

    recorder, records, written = run_turn(remote, manager, ("get_current_time",), allow)

    assert recorder.named("step") == ["plan", "generate", CALL, READ, "generate"]
    (first_messages, first_offer, called), (follow_up, last_offer, answered) = written
    assert first_offer.forced == ("get_current_time",) and first_offer.grammar == ""  # the server holds the call
    [call] = called.tool_calls
    assert call.name == "get_current_time" and call.id.startswith("call_")  # the server's own id
    assert set(call.parsed_arguments) == {"timezone"}
    assert [(request.server, request.call) for request in asked] == [("time", call)]

    [record] = records
    assert record.call == call and record.tool_result is not None and record.result  # mcp-server-time ran it
    assert follow_up[len(first_messages) :] == (
        ChatMessage("assistant", "", "", (call,)),
        ChatMessage("tool", record.result, tool_call_id=call.id),
    )
    assert last_offer == ToolOffer()  # the last round of the limit offers no tools
    assert answered.text and answered.tool_calls == ()
    [(end, done)] = recorder.ends
    assert end == "finished" and done == answered


def test_several_forced_tools_make_the_server_call_one_of_them(remote: RemoteBackend, manager: McpManager) -> None:
    _recorder, records, written = run_turn(
        remote, manager, ("get_current_time", "convert_time"), lambda _request: Approval.DENY
    )

    [call] = written[0][2].tool_calls
    assert call.name in ("get_current_time", "convert_time")
    [record] = records
    assert record.approval is Approval.DENY and record.tool_result is None  # denied: nothing ran
    assert written[1][0][-1] == ChatMessage("tool", "The user denied this call.", tool_call_id=call.id)
