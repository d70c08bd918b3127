"""gpt-oss's harmony tool channel through a whole turn: the model thinks in the analysis channel, calls a
function in the commentary channel, reads the result rendered by its real template, and answers in the final
channel. The model's raw text goes through the reasoning splitter as the engine's does."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.reasoning.splitter import HARMONY, ReasoningSplitter
from app.core.reasoning.tool_calls import ToolCallSplitter, parse_tool_calls
from app.core.reasoning.tool_formats import ToolFamily
from app.core.support.stop_flag import StopFlag
from app.core.turn.steps import PlanStep, TurnState
from app.core.turn.tool_rounds import CallRecord, OfferedTool, ToolOffer, ToolPermissions, ToolRoundsStep, ToolSettings
from app.core.turn.turn import Turn
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from tests.core.reasoning.test_tool_calls import TIME_TOOL, render, template
from tests.core.turn.scripted import Recorder, Said
from tests.helpers.tools import AnsweringTool

GPT_OSS = template("openai-gpt-oss-120b")
# What gpt-oss writes after `<|start|>assistant` (its control tokens rendered), ending at <|call|>, its stop token.
CHANNEL_CALL = (
    "<|channel|>analysis<|message|>The user wants the time in Paris. Use the tool.<|end|>"
    "<|start|>assistant<|channel|>commentary to=functions.get_current_time <|constrain|>json<|message|>"
    '{"timezone": "Europe/Paris"}<|call|>'
)
ROLE_CALL = (  # the recipient in the role, as the template itself renders an earlier call
    "<|channel|>analysis<|message|>Need the time.<|end|>"
    '<|start|>assistant to=functions.get_current_time<|channel|>commentary json<|message|>{"timezone": "UTC"}<|call|>'
)
ANSWER = "<|channel|>analysis<|message|>It says 14:05.<|end|><|start|>assistant<|channel|>final<|message|>It is 14:05."
RESULT = '{"timezone": "Europe/Paris", "datetime": "2026-12-04T14:05:00+01:00"}'


def split(text: str, cuts: range) -> tuple[str, str, list[TokenPiece]]:
    """The reasoning, the answer and the pieces of `text` streamed through the splitter, cut at `cuts`."""
    splitter = ReasoningSplitter(HARMONY)
    pieces: list[TokenPiece] = []
    for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True):
        pieces += [TokenPiece(chunk.text, -1, chunk.part) for chunk in splitter.feed(text[start:end])]
    pieces += [TokenPiece(chunk.text, -1, chunk.part) for chunk in splitter.finish()]
    reasoning = "".join(p.text for p in pieces if p.part is ReplyPart.REASONING)
    answer = "".join(p.text for p in pieces if p.part is ReplyPart.ANSWER)
    return reasoning, answer, pieces


@pytest.mark.parametrize("step", [1, 3, 7, len(CHANNEL_CALL)])
def test_a_call_after_the_analysis_is_kept_as_the_answer_and_read_as_a_call(step: int) -> None:
    reasoning, answer, _pieces = split(CHANNEL_CALL, range(step, len(CHANNEL_CALL), step))
    assert reasoning == "The user wants the time in Paris. Use the tool."
    [call] = parse_tool_calls(answer, ToolFamily.HARMONY).calls
    assert (call.name, call.parsed_arguments) == ("get_current_time", {"timezone": "Europe/Paris"})
    assert parse_tool_calls(answer, ToolFamily.HARMONY).content == ""


def test_a_call_with_the_recipient_in_the_role_is_read_too() -> None:
    _reasoning, answer, _pieces = split(ROLE_CALL, range(5, len(ROLE_CALL), 5))
    [call] = parse_tool_calls(answer, ToolFamily.HARMONY).calls
    assert (call.name, call.parsed_arguments) == ("get_current_time", {"timezone": "UTC"})


def test_a_reply_without_a_call_still_answers_in_the_final_channel() -> None:
    reasoning, answer, _pieces = split(ANSWER, range(4, len(ANSWER), 4))
    assert (reasoning, answer) == ("It says 14:05.", "It is 14:05.")
    assert parse_tool_calls(answer, ToolFamily.HARMONY).calls == ()


def test_the_turn_runs_the_call_gives_the_result_back_through_the_template_and_ends_with_the_answer() -> None:
    prompts: list[str] = []
    replies = [CHANNEL_CALL, ANSWER]

    def generate(
        messages: tuple[ChatMessage, ...],
        offer: ToolOffer,
        stop: StopFlag,
        on_event: Callable[[ReplyEvent], None],
    ) -> None:
        prompts.append(render(GPT_OSS, messages, offer.tools))
        reasoning, answer, pieces = split(replies.pop(0), range(6, 400, 6))
        for piece in pieces:
            on_event(piece)
        on_event(ReplyDone(answer, ReplyStats(stop_reason=StopReason.END_OF_TEXT), reasoning=reasoning))

    def plan(request: PlanRequest) -> PlanResult:
        messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
        return PlanResult(request, WindowPlan(messages, ("u1",), (), 0, 0, 8192, 256, WindowPolicy.ROLLING))

    clock, records, recorder = AnsweringTool(RESULT), list[CallRecord](), Recorder()
    rounds = ToolRoundsStep(
        generate,
        clock,
        (OfferedTool("time", TIME_TOOL),),
        ToolPermissions(),
        ToolSettings(ToolFamily.HARMONY),
        records.append,
    )
    request = PlanRequest("reply", "", (Said("u1", "user", "What time is it in Paris?"),), 256)
    Turn([PlanStep(plan), rounds], TurnState(request), recorder).run()

    assert clock.calls == [("time", "get_current_time", {"timezone": "Europe/Paris"})]
    assert [record.result for record in records] == [RESULT]
    offer, after_call = prompts
    assert "type get_current_time = " in offer  # the tools offered in the template's own words
    assert (
        "<|start|>assistant to=functions.get_current_time<|channel|>commentary json<|message|>"
        '{"timezone": "Europe/Paris"}<|call|>'
    ) in after_call
    assert "<|start|>functions.get_current_time to=assistant<|channel|>commentary<|message|>" in after_call
    assert json.dumps(RESULT) in after_call  # the template writes the result as a JSON string
    [(ending, done)] = recorder.ends
    assert ending == "finished" and isinstance(done, ReplyDone)
    assert done.text == "It is 14:05."


def test_the_call_is_held_back_from_the_answer_shown_as_it_streams() -> None:
    _reasoning, _answer, pieces = split(CHANNEL_CALL, range(3, len(CHANNEL_CALL), 3))
    splitter = ToolCallSplitter(ToolFamily.HARMONY)
    shown = "".join(splitter.feed(piece.text) for piece in pieces if piece.part is ReplyPart.ANSWER)
    rest = splitter.finish()
    assert shown + rest.content == ""  # the call is shown as a step, not as text
    assert [call.name for call in rest.calls] == ["get_current_time"]
