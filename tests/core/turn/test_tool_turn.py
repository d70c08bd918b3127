"""A turn with tools, with the starter model and real MCP servers: generate, call, read, generate.

A named tool choice forces the first reply to call the tool (under a grammar from its schema), so
even the 135M starter model calls it; then the result goes back and the model answers. Each call
is a step of the turn, asked of the user first; a denial, a tool that hangs and a server that
exits are results the model reads, and the turn still ends with one `finished`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.inference.sampling import SamplingParams
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
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.stats import StopReason
from app.core.types.tools import ToolCall
from tests.core.tools.conftest import misbehaving_server, python_server
from tests.core.turn.scripted import Recorder, Said

PARAMS = replace(SamplingParams(), temperature=0.0, seed=1, max_tokens=48)


@pytest.fixture(scope="module")
def backend(starter_model: Path) -> Iterator[LocalBackend]:
    backend = LocalBackend()
    backend.load(LoadConfig(starter_model, n_ctx=2048))
    yield backend
    backend.close()


@pytest.fixture
def manager() -> Iterator[McpManager]:
    manager = McpManager(
        [python_server("time", "mcp-server-time", "--local-timezone", "UTC"), misbehaving_server("odd")],
        timeouts=Timeouts(start_s=30.0, list_s=10.0, call_s=3.0),
    )
    yield manager
    manager.close()


def plan(request: PlanRequest) -> PlanResult:
    messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
    ids = tuple(m.id for m in request.messages)
    return PlanResult(request, WindowPlan(messages, ids, (), 0, 0, 2048, 48, WindowPolicy.ROLLING))


def run_turn(
    backend: LocalBackend,
    manager: McpManager,
    server: str,
    forced: str,
    ask: Callable[[CallRequest], Approval] | None,
    stop_during_call: bool = False,
) -> tuple[Recorder, list[CallRecord], Turn]:
    def generate(
        messages: tuple[ChatMessage, ...],
        offer: ToolOffer,
        stop: StopFlag,
        on_event: Callable[[ReplyEvent], None],
    ) -> None:
        for event in backend.stream_chat(messages, PARAMS, stop, grammar=offer.grammar, tools=offer.tools):
            on_event(event)

    recorder, records = Recorder(), []
    # the forced tool alone: every tool offered is prompt to read, and the starter reads about 120 tokens a second
    tools = offered_tools([info for info in manager.tools(server) if info.name == forced])
    settings = ToolSettings(backend.tool_format.family, forced=(forced,), max_rounds=2)
    rounds = ToolRoundsStep(generate, manager, tools, ToolPermissions(ask=ask), settings, records.append)
    request = PlanRequest("reply", "", (Said("u1", "user", "What time is it in Paris?"),), 48)
    turn = Turn([PlanStep(plan), rounds], TurnState(request), recorder)
    if stop_during_call:
        original = recorder.step_started

        def press_stop_at_call(name: str) -> None:
            original(name)
            if name == CALL:
                threading.Timer(1.0, turn.stop.set).start()

        recorder.step_started = press_stop_at_call  # type: ignore[method-assign]
    turn.run()
    return recorder, records, turn


def steps(recorder: Recorder) -> list[object]:
    return recorder.named("step")


def test_a_forced_call_runs_after_approval_and_the_model_answers_with_its_result(
    backend: LocalBackend, manager: McpManager
) -> None:
    asked: list[CallRequest] = []

    def allow(request: CallRequest) -> Approval:
        asked.append(request)
        return Approval.ONCE

    recorder, records, _turn = run_turn(backend, manager, "time", "get_current_time", allow)

    assert steps(recorder) == ["plan", "generate", CALL, READ, "generate"]
    [record] = records
    assert [(request.server, request.call.name) for request in asked] == [("time", "get_current_time")]
    assert record.approval is Approval.ONCE
    assert record.call.name == "get_current_time" and "timezone" in record.call.parsed_arguments
    assert record.tool_result is not None and record.result  # the server ran it (an unknown zone is an error result)
    [(end, done)] = recorder.ends
    assert end == "finished" and isinstance(done, ReplyDone)
    assert "<tool_call>" not in done.text


def test_always_allowed_tools_are_not_asked_again() -> None:
    permissions = ToolPermissions(always={("time", "get_current_time")}, ask=lambda _request: Approval.DENY)

    assert permissions.decide(CallRequest("time", _call("get_current_time"))) is Approval.ALWAYS
    answered = ToolPermissions(ask=lambda _request: Approval.ALWAYS)
    answered.decide(CallRequest("time", _call("get_current_time")))
    assert answered.always == {("time", "get_current_time")}


def test_a_denied_call_never_runs_and_the_model_reads_the_denial(backend: LocalBackend, manager: McpManager) -> None:
    recorder, records, _turn = run_turn(backend, manager, "time", "get_current_time", lambda _request: Approval.DENY)

    [record] = records
    assert record.approval is Approval.DENY and record.tool_result is None
    assert record.result == "The user denied this call."
    assert steps(recorder) == ["plan", "generate", CALL, READ, "generate"]
    assert [end for end, _value in recorder.ends] == ["finished"]


def test_a_tool_that_hangs_ends_at_its_timeout_as_an_error_the_model_reads(
    backend: LocalBackend, manager: McpManager
) -> None:
    recorder, records, _turn = run_turn(backend, manager, "odd", "hang", None)

    [record] = records
    assert record.is_error and "within 3" in record.result
    assert [end for end, _value in recorder.ends] == ["finished"]


def test_a_server_that_exits_during_the_call_is_an_error_the_model_reads(
    backend: LocalBackend, manager: McpManager
) -> None:
    recorder, records, _turn = run_turn(backend, manager, "odd", "die", None)

    [record] = records
    assert record.is_error and "ended during the call of die" in record.result
    assert [end for end, _value in recorder.ends] == ["finished"]


def test_stop_during_a_call_cancels_it_and_ends_the_turn_as_stopped(backend: LocalBackend, manager: McpManager) -> None:
    recorder, records, _turn = run_turn(backend, manager, "odd", "hang", None, stop_during_call=True)

    [record] = records
    assert record.result == "The call was stopped."
    assert steps(recorder) == ["plan", "generate", CALL]  # nothing read, nothing generated after the Stop
    [(end, done)] = recorder.ends
    assert end == "finished" and isinstance(done, ReplyDone) and done.stats.stop_reason is StopReason.USER


def _call(name: str) -> ToolCall:
    return ToolCall("call_x", name)
