"""The context window with the starter model's real tokenizer and chat template, and llama.cpp's prefix cache."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.core.chat.context_window import ContextWindow, EnginePlanner, MessageTooLongError, PlanRequest, WindowPolicy
from app.core.chat.context_window import WindowTurn as Msg
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.tools import ToolSpec

TEXTS = [
    "Hello! Can you tell me about the moon?",
    "The Moon is Earth's only natural satellite. 🌕 It is about 384 400 km away.",
    "Write `print('hi')` in Python, and explain ünïcode too.",
    "```python\nprint('hi')\n```\nUnicode maps characters — like ü, 漢字 and emoji — to numbers.",
    "  Leading spaces, trailing spaces, and\n\nblank lines.  ",
]


class CountingEngine:
    """The real engine's counter, counting how often the whole template is rendered."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.calls = 0

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        self.calls += 1
        return self.engine.count_tokens(messages, tools)


def chat(count: int) -> list[Msg]:
    return [Msg(i, "user" if i % 2 == 0 else "assistant", f"{TEXTS[i % len(TEXTS)]} ({i})") for i in range(count)]


@pytest.mark.parametrize("system", ["", "You answer in one sentence."])
def test_the_planned_prompt_fits_and_its_count_is_the_real_count(engine: Engine, system: str) -> None:
    window = ContextWindow(engine)
    plan = window.plan(system, chat(120), engine.n_ctx, 256)
    assert plan.outside_ids, "120 messages do not fit 2048 tokens"
    assert plan.prompt_tokens == engine.count_tokens(plan.messages) <= engine.n_ctx - 256
    assert plan.kept_ids[-1] == 119
    if system:
        assert plan.messages[0] == ChatMessage("system", system)


def test_measured_message_costs_add_up_to_the_rendered_prompt(engine: Engine) -> None:
    """Exact for ChatML templates, including SmolLM2's default system prompt that is added once."""
    window = ContextWindow(engine)
    for system in ("", "Be brief."):
        for count in (1, 2, 5, 9):
            plan = window.plan(system, chat(count), engine.n_ctx, 64)
            assert plan.estimated_tokens == plan.prompt_tokens


def test_a_new_turn_measures_the_new_message_and_renders_the_prompt_once(engine: Engine) -> None:
    counter = CountingEngine(engine)
    window = ContextWindow(counter)
    window.plan("Be brief.", chat(80), engine.n_ctx, 256)
    before = counter.calls
    messages = [*chat(80), Msg(80, "user", "One more question about the moon, please.")]
    window.plan("Be brief.", messages, engine.n_ctx, 256)
    assert counter.calls - before <= 3


def test_a_message_longer_than_the_context_is_refused_with_a_clear_message(engine: Engine) -> None:
    huge = Msg(0, "user", "lorem ipsum dolor sit amet " * 600)
    with pytest.raises(MessageTooLongError, match=r"latest message is .* tokens") as caught:
        ContextWindow(engine).plan("", [huge], engine.n_ctx, 256)
    assert "raise the context length" in str(caught.value)


def test_turns_after_a_slide_reuse_the_cached_prefix(engine: Engine) -> None:
    """The window slides in chunks, so the turns between slides only evaluate their new tokens."""
    window = ContextWindow(engine)
    reserve = engine.n_ctx - 170  # a small budget so that a few turns make it slide
    params = GREEDY.with_values({"max_tokens": 4})
    messages: list[Msg] = []
    turns = []
    for turn in range(12):
        messages.append(Msg(len(messages), "user", f"Question {turn}: name a colour and a fruit, please."))
        plan = window.plan("Be brief.", messages, engine.n_ctx, reserve, WindowPolicy.ROLLING)
        done = _reply(engine, plan.messages, params)
        messages.append(Msg(len(messages), "assistant", done.text))
        turns.append((plan, done.stats))
    slid = [i for i in range(1, len(turns)) if turns[i][0].outside_ids != turns[i - 1][0].outside_ids]
    steady = [i for i in range(1, len(turns)) if i not in slid]
    assert len(slid) >= 2, "the conversation outgrew the window more than once"
    assert len(steady) >= len(slid), "most turns do not slide"
    for i in steady:
        previous_prompt = turns[i - 1][1].prompt_tokens
        assert turns[i][1].cached_prompt_tokens >= previous_prompt, f"turn {i} re-evaluated its history"


def _reply(engine: Engine, messages: Sequence[ChatMessage], params: SamplingParams) -> ReplyDone:
    done = engine.complete_chat(messages, params)
    assert not done.stats.error
    return done


def test_the_planner_keeps_at_most_half_the_context_for_the_reply(engine: Engine) -> None:
    planner = EnginePlanner(engine)
    result = planner.plan(PlanRequest("reply", "", (Msg(0, "user", "Hi"),), reserve=10_000))
    assert result.plan is not None and result.plan.reserve == engine.n_ctx // 2
    assert planner.plan(PlanRequest("reply", "", (Msg(0, "user", "Hi"),), reserve=100)).plan.reserve == 100


def test_the_planner_reports_a_turn_that_does_not_fit_as_an_error(engine: Engine) -> None:
    huge = Msg(0, "user", "lorem ipsum " * 3000)
    result = EnginePlanner(engine).plan(PlanRequest("meter", "", (huge,), reserve=64))
    assert result.plan is None and "latest message is" in result.error
