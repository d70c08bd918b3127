"""What a tool turn's results take of the context: each result counted in the model's tokens, and the
turn's window reported again once a round's results are read (scripted model, a tool run in process)."""

from __future__ import annotations

import json
from collections.abc import Callable

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.reasoning.tool_formats import ToolFamily
from app.core.support.stop_flag import StopFlag
from app.core.turn.steps import PlanStep, TurnState
from app.core.turn.tool_rounds import (
    CallRecord,
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
from app.core.types.tools import ToolSpec
from tests.core.turn.scripted import Recorder, Said
from tests.helpers.tools import AnsweringTool

CLOCK = OfferedTool("time", ToolSpec("clock", "The time", json.dumps({"type": "object", "properties": {}})))
CALL_TEXT = '<tool_call>\n{"name": "clock", "arguments": {}}\n</tool_call>'
RESULT = "It is twelve o'clock noon in Paris on a sunny Tuesday"


def replies(*written: tuple[str, int, int]) -> Callable[..., None]:
    """A model that writes each (text, prompt tokens, completion tokens) in turn."""
    script = list(written)

    def generate(
        messages: tuple[ChatMessage, ...],
        offer: ToolOffer,
        stop: StopFlag,
        on_event: Callable[[ReplyEvent], None],
    ) -> None:
        text, prompt, completion = script.pop(0)
        stats = ReplyStats(prompt_tokens=prompt, completion_tokens=completion, stop_reason=StopReason.END_OF_TEXT)
        on_event(ReplyDone(text, stats))

    return generate


def plan(request: PlanRequest) -> PlanResult:
    messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
    window = WindowPlan(messages, ("u1",), (), 90, 60, 2048, 64, WindowPolicy.ROLLING, tool_tokens=50)
    return PlanResult(request, window)


def words(text: str) -> int:
    return len(text.split())


def run(count: Callable[[str], int] | None) -> tuple[Recorder, list[CallRecord]]:
    recorder, records = Recorder(), []
    rounds = ToolRoundsStep(
        replies((CALL_TEXT, 90, 12), ("Noon.", 130, 3)),
        AnsweringTool(RESULT, cap_bytes=1024),
        (CLOCK,),
        ToolPermissions(),  # every call runs
        ToolSettings(ToolFamily.HERMES),
        records.append,
        count,
    )
    request = PlanRequest("reply", "", (Said("u1", "user", "What time is it?"),), 64, tools=(CLOCK.spec,))
    Turn([PlanStep(plan), rounds], TurnState(request), recorder).run()
    return recorder, records


def test_each_result_says_its_size_in_the_models_tokens() -> None:
    _recorder, [record] = run(words)
    assert record.result == RESULT
    assert record.tokens == words(RESULT)


def test_once_a_rounds_results_are_read_the_window_is_reported_with_them_in_it() -> None:
    recorder, _records = run(words)
    first, after_read = (result for result in recorder.named("planned") if isinstance(result, PlanResult))
    assert first.plan is not None and after_read.plan is not None
    assert first.plan.tool_result_tokens == 0
    grown = after_read.plan
    assert grown.tool_result_tokens == words(RESULT)
    assert grown.prompt_tokens == 90 + 12 + words(RESULT)  # the round's prompt and reply, then the result
    assert grown.tool_tokens == 50  # the definitions are still offered
    assert [m.role for m in grown.messages] == ["user", "assistant", "tool"]
    assert grown.messages[-1].content == RESULT
    assert recorder.ends[0][0] == "finished"


def test_without_a_tokenizer_results_are_not_counted_but_the_window_still_grows() -> None:
    recorder, [record] = run(None)
    assert record.tokens == 0
    after_read = recorder.named("planned")[-1]
    assert isinstance(after_read, PlanResult) and after_read.plan is not None
    assert after_read.plan.prompt_tokens == 90 + 12
