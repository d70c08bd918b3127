"""A message of a conversation as the engine renders it into a prompt."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChatMessage:
    role: str  # "system", "user" or "assistant"
    content: str
    reasoning: str = ""  # an assistant message's reasoning, for templates that render past reasoning
