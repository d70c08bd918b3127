"""The prompt inspector with tools offered: the definitions' tokens are marked, a tool's result is a message
of its own, and the counts are those of the prompt the engine evaluates (starter model)."""

from __future__ import annotations

import json

from app.core.chat.context_window import EnginePlanner, PlanRequest
from app.core.chat.context_window import WindowTurn as Msg
from app.core.chat.prompt_inspector import inserted_span, inspect_conversation, inspect_prompt
from app.core.inference.engine import Engine
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolCall, ToolSpec

CLOCK = ToolSpec(
    "get_current_time",
    "Get the current time in a time zone",
    json.dumps({"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}),
)
ASKED = [ChatMessage("user", "What time is it in Paris?")]
CALL = ToolCall("call_1", "get_current_time", '{"timezone": "Europe/Paris"}')
RESULT = '{"timezone": "Europe/Paris", "datetime": "2026-03-01T14:05:00+01:00"}'
AFTER_CALL = [
    *ASKED,
    ChatMessage("assistant", "", tool_calls=(CALL,)),
    ChatMessage("tool", RESULT, tool_call_id="call_1"),
]


def test_the_inserted_span_is_what_the_second_text_adds_to_the_first() -> None:
    assert inserted_span("<s>sys</s><u>hi</u>", "<s>sys TOOLS</s><u>hi</u>") == (6, 12)
    assert inserted_span("same", "same") == (0, 0)


def test_the_tokens_of_the_tools_definitions_are_marked_and_counted(engine: Engine) -> None:
    plain = inspect_prompt(engine, ASKED)
    offered = inspect_prompt(engine, ASKED, tools=(CLOCK,))

    assert [t.token_id for t in offered.tokens] == engine.prompt_tokens(ASKED, (CLOCK,))
    assert plain.tool_count == 0
    assert offered.tool_count > 0
    marked = "".join(t.text for t in offered.tokens if t.tool)
    assert "get_current_time" in marked and "timezone" in marked
    assert not any(t.tool and t.message is not None for t in offered.tokens)  # the user's words are not the tools'
    # one block, as the template writes it (here in place of SmolLM2's default system prompt)
    marked_at = [i for i, t in enumerate(offered.tokens) if t.tool]
    assert marked_at == list(range(marked_at[0], marked_at[-1] + 1))
    assert offered.tool_count > offered.count - plain.count  # the default system prompt it replaced was short


def test_a_tools_result_is_a_message_of_its_own_with_its_tokens(engine: Engine) -> None:
    inspection = inspect_prompt(engine, AFTER_CALL, tools=(CLOCK,))
    [result] = [entry for entry in inspection.messages if entry.role == "tool"]
    assert result.inside
    assert result.tokens > 0
    assert inspection.tool_result_count == result.tokens
    carried = "".join(t.text for t in inspection.tokens if t.message == inspection.messages.index(result))
    assert carried.strip() == RESULT


def test_a_conversation_with_tools_is_planned_and_inspected_with_them_as_a_reply_would_be(engine: Engine) -> None:
    inspection = inspect_conversation(engine, ASKED, reserve=64, tools=(CLOCK,))
    assert inspection.count == len(engine.prompt_tokens(ASKED, (CLOCK,)))
    assert inspection.tool_count > 0

    turns = tuple(Msg(i, m.role, m.content) for i, m in enumerate(ASKED))
    plan = EnginePlanner(engine).plan(PlanRequest("reply", "", turns, 64, tools=(CLOCK,), with_ids=True)).plan
    assert plan is not None
    assert list(plan.prompt_ids) == engine.prompt_tokens(plan.messages, (CLOCK,))
    assert plan.prompt_tokens == inspection.count
    assert plan.tool_tokens > 0
