"""A chat's tools switched off: the model is not offered them, and a call to one anyway does not run — the model
reads that there is no such tool, as for any tool it was not offered (scripted model, a tool run in process)."""

from __future__ import annotations

from collections.abc import Callable

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.reasoning.tool_formats import ToolFamily
from app.core.support.stop_flag import StopFlag
from app.core.tools.connection import ToolInfo
from app.core.turn.steps import PlanStep, TurnState
from app.core.turn.tool_rounds import (
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
from app.core.types.stats import ReplyStats, StopReason
from tests.core.turn.scripted import Recorder, Said
from tests.helpers.tools import AnsweringTool

OBJECT = {"type": "object", "properties": {}}
TIME_TOOLS = (
    ToolInfo("time", "get_current_time", "", "The time now.", OBJECT),
    ToolInfo("time", "convert_time", "", "A time in another zone.", OBJECT),
)


def names(infos: tuple[ToolInfo, ...], off: set[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(tool.server, tool.spec.name) for tool in offered_tools(infos, off)]


def test_a_tool_switched_off_is_not_offered_and_the_servers_other_tools_are() -> None:
    assert names(TIME_TOOLS, set()) == [("time", "get_current_time"), ("time", "convert_time")]
    assert names(TIME_TOOLS, {("time", "convert_time")}) == [("time", "get_current_time")]
    assert names(TIME_TOOLS, {("time", "convert_time"), ("time", "get_current_time")}) == []


def test_a_tool_switched_off_on_one_server_leaves_the_same_name_on_another_offered() -> None:
    other = ToolInfo("clock", "get_current_time", "", "The clock's time.", OBJECT)
    assert names((*TIME_TOOLS, other), set()) == [("time", "get_current_time"), ("time", "convert_time")]
    offered = names((*TIME_TOOLS, other), {("time", "get_current_time")})
    assert offered == [("time", "convert_time"), ("clock", "get_current_time")]


def test_switching_off_a_tool_of_another_server_changes_nothing() -> None:
    assert names(TIME_TOOLS, {("git", "convert_time")}) == names(TIME_TOOLS, set())


def test_a_call_to_a_tool_switched_off_does_not_run_and_the_model_reads_it_is_not_there() -> None:
    offers: list[ToolOffer] = []
    read: list[ChatMessage] = []
    script = ['<tool_call>\n{"name": "convert_time", "arguments": {}}\n</tool_call>', "I cannot convert it."]

    def generate(
        messages: tuple[ChatMessage, ...], offer: ToolOffer, stop: StopFlag, on_event: Callable[[ReplyEvent], None]
    ) -> None:
        offers.append(offer)
        read.extend(m for m in messages if m.role == "tool")
        stats = ReplyStats(prompt_tokens=10, completion_tokens=5, stop_reason=StopReason.END_OF_TEXT)
        on_event(ReplyDone(script.pop(0), stats))

    def plan(request: PlanRequest) -> PlanResult:
        messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
        return PlanResult(request, WindowPlan(messages, ("u1",), (), 10, 5, 2048, 64, WindowPolicy.ROLLING))

    def never_asked(request: CallRequest) -> Approval:
        raise AssertionError(f"{request.call.name} was asked about")

    clock, records = AnsweringTool("noon"), list[CallRecord]()
    tools = offered_tools(TIME_TOOLS, {("time", "convert_time")})
    settings = ToolSettings(ToolFamily.HERMES)
    rounds = ToolRoundsStep(generate, clock, tools, ToolPermissions(ask=never_asked), settings, records.append)
    request = PlanRequest("reply", "", (Said("u1", "user", "What is noon UTC in Paris?"),), 64)
    recorder = Recorder()
    Turn([PlanStep(plan), rounds], TurnState(request), recorder).run()

    assert [spec.name for spec in offers[0].tools] == ["get_current_time"]
    assert clock.calls == []
    [record] = records
    assert (record.call.name, record.approval, record.is_error) == ("convert_time", Approval.DENY, True)
    assert [m.content for m in read] == ["There is no tool named convert_time."]
    [(end, done)] = recorder.ends
    assert end == "finished" and isinstance(done, ReplyDone) and done.text == "I cannot convert it."
