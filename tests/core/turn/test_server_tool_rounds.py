"""The tool rounds with a server's model (no tool family here: its server reads the calls), scripted.

The calls come with the reply (`ReplyDone.tool_calls`) and are run as they are; the model's text is
its answer and is not read for calls. A forced tool goes in the first offer by name, with no grammar.
A call whose arguments are not a JSON object (a server's model writes them free) is not run, and the
model reads why.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.support.stop_flag import StopFlag
from app.core.turn.steps import PlanStep, TurnState
from app.core.turn.tool_rounds import (
    Approval,
    CallRecord,
    CallRequest,
    OfferedTool,
    ToolOffer,
    ToolPermissions,
    ToolRoundsStep,
    ToolSettings,
)
from app.core.turn.turn import Turn
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.tools import ToolCall, ToolSpec
from tests.core.turn.scripted import Recorder, Said
from tests.helpers.tools import AnsweringTool

SCHEMA = {"type": "object", "properties": {"zone": {"type": "string"}}}
CLOCK = OfferedTool("time", ToolSpec("clock", "The time", json.dumps(SCHEMA)))
RESULT = "12:00"
ENDED = ReplyStats(stop_reason=StopReason.END_OF_TEXT)


def plan(request: PlanRequest) -> PlanResult:
    messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
    return PlanResult(request, WindowPlan(messages, ("u1",), (), 0, 0, 2048, 64, WindowPolicy.ROLLING))


class Run:
    """One turn with the scripted replies; what each reply was offered and given, the calls, the asks."""

    def __init__(self, *replies: ReplyDone, forced: tuple[str, ...] = ()) -> None:
        self.clock, self.recorder = AnsweringTool(RESULT, cap_bytes=1024), Recorder()
        self.offers: list[ToolOffer] = []
        self.conversations: list[tuple[ChatMessage, ...]] = []
        self.records: list[CallRecord] = []
        self.asked: list[CallRequest] = []
        script = list(replies)

        def generate(
            messages: tuple[ChatMessage, ...], offer: ToolOffer, stop: StopFlag, on_event: Callable[[ReplyEvent], None]
        ) -> None:
            self.conversations.append(messages)
            self.offers.append(offer)
            on_event(script.pop(0))

        def ask(request: CallRequest) -> Approval:
            self.asked.append(request)
            return Approval.ONCE

        settings = ToolSettings(None, forced=forced)
        rounds = ToolRoundsStep(generate, self.clock, (CLOCK,), ToolPermissions(ask=ask), settings, self.records.append)
        request = PlanRequest("reply", "", (Said("u1", "user", "What time is it?"),), 64)
        Turn([PlanStep(plan), rounds], TurnState(request), self.recorder).run()


def test_the_servers_calls_run_as_they_came_and_their_results_answer_them_by_id() -> None:
    call = ToolCall("call_srv_1", "clock", '{"zone": "UTC"}')
    run = Run(ReplyDone("Let me look.", ENDED, tool_calls=(call,)), ReplyDone("Noon.", ENDED))

    assert run.clock.calls == [("time", "clock", {"zone": "UTC"})]
    assert [request.call for request in run.asked] == [call]
    assert run.conversations[1][1:] == (
        ChatMessage("assistant", "Let me look.", "", (call,)),
        ChatMessage("tool", RESULT, tool_call_id="call_srv_1"),
    )
    [(end, done)] = run.recorder.ends
    assert end == "finished" and isinstance(done, ReplyDone) and done.text == "Noon."


def test_a_servers_model_text_is_its_answer_and_is_not_read_for_calls() -> None:
    text = '<tool_call>{"name": "clock", "arguments": {}}</tool_call>'
    run = Run(ReplyDone(text, ENDED))

    assert run.clock.calls == [] and run.records == []
    [(end, done)] = run.recorder.ends
    assert end == "finished" and isinstance(done, ReplyDone) and done.text == text


def test_a_forced_tool_is_named_in_the_first_offer_only_and_no_grammar_is_made() -> None:
    call = ToolCall("call_1", "clock", "{}")
    run = Run(ReplyDone("", ENDED, tool_calls=(call,)), ReplyDone("Noon.", ENDED), forced=("clock",))

    assert run.offers == [ToolOffer((CLOCK.spec,), "", ("clock",)), ToolOffer((CLOCK.spec,), "", ())]


def test_a_call_whose_arguments_are_not_an_object_is_not_run_and_the_model_reads_why() -> None:
    call = ToolCall("call_1", "clock", '{"zone": "UT')
    run = Run(ReplyDone("", ENDED, tool_calls=(call,)), ReplyDone("Sorry.", ENDED))

    assert run.clock.calls == [] and run.asked == []  # nothing to ask about: it cannot run
    [record] = run.records
    assert record.is_error and record.tool_result is None
    assert record.result == 'The call was not run: its arguments are not a JSON object: {"zone": "UT'
    assert run.conversations[1][-1] == ChatMessage("tool", record.result, tool_call_id="call_1")
