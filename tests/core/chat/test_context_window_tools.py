"""The context window with tools offered: their definitions take room in the frame, their results in the
conversation, and the plan says how much of each (fake token counter, Hermes-style offer)."""

from __future__ import annotations

import json

import pytest

from app.core.chat.context_window import ContextWindow, PlanRequest, WindowError
from app.core.chat.context_window import WindowTurn as Msg
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolSpec
from tests.fakes.token_counter import FakeTokenCounter

CLOCK = ToolSpec(
    "get_current_time",
    "Get the current time in a time zone",
    json.dumps({"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}),
)
WEATHER = ToolSpec("get_weather", "The weather at a place", json.dumps({"type": "object", "properties": {}}))


def talk(turns: int, words: int = 20) -> list[Msg]:
    roles = ("user", "assistant")
    return [Msg(i, roles[i % 2], " ".join(f"w{i}x{j}" for j in range(words))) for i in range(turns)]


def test_the_tools_offered_count_in_the_frame_and_the_plan_says_what_they_take() -> None:
    counter = FakeTokenCounter()
    messages = talk(3)
    plain = ContextWindow(counter).plan("Be brief.", messages, 4096, 100)
    offered = ContextWindow(counter).plan("Be brief.", messages, 4096, 100, tools=(CLOCK, WEATHER))

    prompt = [ChatMessage("system", "Be brief."), *(ChatMessage(m.role, m.text) for m in messages)]
    definitions = counter.count_tokens(prompt, (CLOCK, WEATHER)) - counter.count_tokens(prompt)
    assert definitions > 0
    assert offered.tool_tokens == definitions
    assert offered.prompt_tokens == plain.prompt_tokens + definitions  # every count is made with the tools
    assert offered.frame_tokens == plain.frame_tokens + definitions
    assert plain.tool_tokens == 0 and offered.tool_result_tokens == 0


def test_a_chat_without_a_system_prompt_counts_the_tools_offered_too() -> None:
    plan = ContextWindow(FakeTokenCounter()).plan("", talk(1), 4096, 100, tools=(CLOCK,))
    assert plan.tool_tokens > 0
    assert plan.frame_tokens >= plan.tool_tokens


def test_tools_offered_push_older_turns_out_of_a_window_they_fitted_without_them() -> None:
    counter = FakeTokenCounter()
    messages = talk(9)
    n_ctx = ContextWindow(counter).plan("", messages, 10_000, 0).prompt_tokens + 10  # all of it just fits
    assert not ContextWindow(counter).plan("", messages, n_ctx, 0).outside_ids

    offered = ContextWindow(counter).plan("", messages, n_ctx, 0, tools=(CLOCK, WEATHER))
    assert offered.outside_ids  # the definitions took the room of the oldest turns
    assert offered.prompt_tokens <= n_ctx


def test_the_tools_results_in_the_conversation_are_counted_apart_from_the_rest_of_it() -> None:
    counter = FakeTokenCounter()
    result = "14:05 in Europe/Paris, a Tuesday " * 5
    messages = [
        Msg(0, "user", "What time is it in Paris?"),
        Msg(1, "assistant", "Let me look."),
        Msg(2, "tool", result),
        Msg(3, "assistant", "It is five past two."),
        Msg(4, "user", "Thanks!"),
    ]
    plan = ContextWindow(counter).plan("", messages, 4096, 100, tools=(CLOCK,))

    before = [ChatMessage("user", "Hello."), ChatMessage("assistant", "Hello! How can I help?")]
    block = counter.count_tokens([*before, ChatMessage("tool", result)]) - counter.count_tokens(before)
    assert plan.tool_result_tokens == block
    conversation = plan.prompt_tokens - plan.frame_tokens
    assert 0 < plan.tool_result_tokens < conversation


def test_a_system_prompt_and_tools_that_leave_no_room_say_the_tools_take_part_of_it() -> None:
    huge = ToolSpec("huge", "word " * 400)
    with pytest.raises(WindowError, match="tool servers off"):
        ContextWindow(FakeTokenCounter()).plan("Be brief.", talk(1), 300, 50, tools=(huge,))


def test_a_plan_request_carries_the_tools_offered() -> None:
    request = PlanRequest("meter", "", (), 100, tools=(CLOCK,))
    assert request.tools == (CLOCK,)
