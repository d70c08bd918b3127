"""A deterministic stand-in for the engine's token counting (same interface: count_tokens(messages, tools)).

It renders a ChatML prompt the way SmolLM2's template does (a default system prompt when
the conversation has none; tools offered as Hermes templates offer them, in the system message)
and counts words, newlines and special markers as tokens.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolSpec

_TOKEN = re.compile(r"<\|im_start\|>|<\|im_end\|>|\n|[^\s<]+|<")
DEFAULT_SYSTEM = "You are a helpful assistant."


class FakeTokenCounter:
    def __init__(self, non_additive_every: int = 0) -> None:
        """non_additive_every: add one token per that many messages, so block costs do not add up exactly."""
        self.calls = 0
        self._non_additive_every = non_additive_every

    def render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> str:
        offer = "".join(f"\n# Tools\n{json.dumps(tool.as_openai())}" for tool in tools)
        parts = []
        if messages and messages[0].role != "system":
            parts.append(f"<|im_start|>system\n{DEFAULT_SYSTEM}{offer}<|im_end|>\n")
        elif messages:
            parts.append(f"<|im_start|>system\n{messages[0].content}{offer}<|im_end|>\n")
            messages = messages[1:]
        parts += [f"<|im_start|>{m.role}\n{m.content}<|im_end|>\n" for m in messages]
        parts.append("<|im_start|>assistant\n")
        return "".join(parts)

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        self.calls += 1
        extra = len(messages) // self._non_additive_every if self._non_additive_every else 0
        return len(_TOKEN.findall(self.render(messages, tools))) + extra
