"""A deterministic stand-in for the engine's token counting (same interface: count_tokens(messages)).

It renders a ChatML prompt the way SmolLM2's template does (a default system prompt when
the conversation has none) and counts words, newlines and special markers as tokens.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.types.messages import ChatMessage

_TOKEN = re.compile(r"<\|im_start\|>|<\|im_end\|>|\n|[^\s<]+|<")
DEFAULT_SYSTEM = "You are a helpful assistant."


class FakeTokenCounter:
    def __init__(self, non_additive_every: int = 0) -> None:
        """non_additive_every: add one token per that many messages, so block costs do not add up exactly."""
        self.calls = 0
        self._non_additive_every = non_additive_every

    def render(self, messages: Sequence[ChatMessage]) -> str:
        parts = []
        if messages and messages[0].role != "system":
            parts.append(f"<|im_start|>system\n{DEFAULT_SYSTEM}<|im_end|>\n")
        parts += [f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages]
        parts.append("<|im_start|>assistant\n")
        return "".join(parts)

    def count_tokens(self, messages: Sequence[ChatMessage]) -> int:
        self.calls += 1
        extra = len(messages) // self._non_additive_every if self._non_additive_every else 0
        return len(_TOKEN.findall(self.render(messages))) + extra
