"""An earlier reply's reasoning in the context window: it goes with its message, and it costs room only
where the template sends it (a fake counter per kind of template, and real templates counted in words):
the estimate and the plan's reasoning tokens count what is really sent."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from llama_cpp import llama_chat_format

from app.core.chat.context_window import ContextWindow, WindowPolicy
from app.core.chat.context_window import WindowTurn as Msg
from app.core.inference.prompt_parts import render_parts
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolSpec
from tests.fakes.token_counter import FakeTokenCounter

TEMPLATES = Path(__file__).parents[1] / "reasoning" / "templates"
LONG_REASONING = "hmm " * 200
CONVERSATION = [Msg(0, "user", "Hi"), Msg(1, "assistant", "Hello", LONG_REASONING), Msg(2, "user", "How are you?")]


class SendsPastReasoning(FakeTokenCounter):
    """A template that writes an earlier reply's reasoning before its answer (as Bielik's or Seed-OSS's do)."""

    def render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> str:
        shown = [
            ChatMessage(m.role, f"<think>\n{m.reasoning}\n</think>\n{m.content}" if m.reasoning else m.content)
            for m in messages
        ]
        return super().render(shown, tools)


def test_past_reasoning_a_template_drops_costs_nothing_and_still_goes_with_its_message() -> None:
    plan = ContextWindow(FakeTokenCounter()).plan("", CONVERSATION, 120, 20, WindowPolicy.ROLLING)
    assert plan.kept_ids == (0, 1, 2)
    assert plan.messages[-2] == ChatMessage("assistant", "Hello", LONG_REASONING)


def test_past_reasoning_a_template_sends_is_counted_and_leaves_the_window_when_it_does_not_fit() -> None:
    counter = SendsPastReasoning()
    plan = ContextWindow(counter).plan("", CONVERSATION, 120, 20, WindowPolicy.ROLLING)
    assert 1 not in plan.kept_ids
    assert plan.prompt_tokens == counter.count_tokens(plan.messages) <= 100


def test_the_plan_says_how_many_of_its_tokens_are_past_reasoning_and_its_estimate_counts_them() -> None:
    counter = SendsPastReasoning()
    short = [Msg(0, "user", "Hi"), Msg(1, "assistant", "Hello", "hmm " * 10), Msg(2, "user", "How are you?")]
    plan = ContextWindow(counter).plan("", short, 120, 20, WindowPolicy.ROLLING)
    without = counter.count_tokens([ChatMessage(m.role, m.content) for m in plan.messages])
    assert plan.kept_ids == (0, 1, 2)
    assert plan.reasoning_tokens == plan.prompt_tokens - without > 0
    assert plan.estimated_tokens == plan.prompt_tokens


def test_a_plan_without_past_reasoning_in_its_prompt_has_no_reasoning_tokens() -> None:
    plan = ContextWindow(FakeTokenCounter()).plan("", CONVERSATION, 120, 20, WindowPolicy.ROLLING)
    assert plan.reasoning_tokens == 0
    assert plan.estimated_tokens == plan.prompt_tokens


class TemplateWords:
    """Counts the words of a prompt rendered by a real chat template, as the engine renders it."""

    def __init__(self, name: str) -> None:
        template = (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")
        self._formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token="</s>", bos_token="<s>")

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        assert not tools, "these templates are measured without tools"
        turns = [(m.role, m.content, m.reasoning) for m in messages]
        return len(render_parts(self._formatter, turns, {"enable_thinking": True}).text.split())


@pytest.mark.parametrize("template", ["Qwen-Qwen3-0.6B", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B"])
def test_templates_that_drop_past_reasoning_get_a_window_that_does_not_count_it(template: str) -> None:
    counter = TemplateWords(template)
    plan = ContextWindow(counter).plan("Be brief.", CONVERSATION, 150, 20, WindowPolicy.ROLLING)
    assert plan.kept_ids == (0, 1, 2)  # 200 words of reasoning would not fit: they are not sent
    assert plan.reasoning_tokens == 0
    assert plan.reasoning_left_out == 200  # the room that saves, in the counter's words
    assert plan.estimated_tokens == plan.prompt_tokens == counter.count_tokens(plan.messages)


def test_a_real_template_that_sends_past_reasoning_gets_it_counted_in_the_estimate_and_the_plan() -> None:
    counter = TemplateWords("Bielik-11B-v3.0-Instruct")
    short = [Msg(0, "user", "Hi"), Msg(1, "assistant", "Hello", "hmm " * 10), Msg(2, "user", "How are you?")]
    plan = ContextWindow(counter).plan("Be brief.", short, 400, 20, WindowPolicy.ROLLING)
    without = counter.count_tokens([ChatMessage(m.role, m.content) for m in plan.messages])
    assert plan.kept_ids == (0, 1, 2)
    assert plan.reasoning_tokens == plan.prompt_tokens - without >= 10
    assert plan.reasoning_left_out == 0
    assert plan.estimated_tokens == plan.prompt_tokens
    too_long = ContextWindow(counter).plan("Be brief.", CONVERSATION, 150, 20, WindowPolicy.ROLLING)
    assert 1 not in too_long.kept_ids and too_long.reasoning_tokens == 0
