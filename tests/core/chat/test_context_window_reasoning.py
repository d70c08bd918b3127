"""An earlier reply's reasoning in the context window: it goes with its message, and it costs room only
where the template sends it (a fake counter per kind of template)."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.chat.context_window import ContextWindow, WindowPolicy
from app.core.chat.context_window import WindowTurn as Msg
from app.core.types.messages import ChatMessage
from tests.fakes.token_counter import FakeTokenCounter

LONG_REASONING = "hmm " * 200
CONVERSATION = [Msg(0, "user", "Hi"), Msg(1, "assistant", "Hello", LONG_REASONING), Msg(2, "user", "How are you?")]


class SendsPastReasoning(FakeTokenCounter):
    """A template that writes an earlier reply's reasoning before its answer (as Bielik's or Seed-OSS's do)."""

    def render(self, messages: Sequence[ChatMessage]) -> str:
        shown = [
            ChatMessage(m.role, f"<think>\n{m.reasoning}\n</think>\n{m.content}" if m.reasoning else m.content)
            for m in messages
        ]
        return super().render(shown)


def test_past_reasoning_a_template_drops_costs_nothing_and_still_goes_with_its_message() -> None:
    plan = ContextWindow(FakeTokenCounter()).plan("", CONVERSATION, 120, 20, WindowPolicy.ROLLING)
    assert plan.kept_ids == (0, 1, 2)
    assert plan.messages[-2] == ChatMessage("assistant", "Hello", LONG_REASONING)


def test_past_reasoning_a_template_sends_is_counted_and_leaves_the_window_when_it_does_not_fit() -> None:
    counter = SendsPastReasoning()
    plan = ContextWindow(counter).plan("", CONVERSATION, 120, 20, WindowPolicy.ROLLING)
    assert 1 not in plan.kept_ids
    assert plan.prompt_tokens == counter.count_tokens(plan.messages) <= 100
