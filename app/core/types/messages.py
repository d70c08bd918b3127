"""A message of a conversation as the engine renders it into a prompt."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.types.tools import ToolCall


@dataclass(frozen=True)
class ChatMessage:
    role: str  # "system", "user", "assistant", or "tool" (a tool's result)
    content: str
    reasoning: str = ""  # an assistant message's reasoning, for templates that render past reasoning
    tool_calls: tuple[ToolCall, ...] = ()  # an assistant message's calls
    tool_call_id: str = ""  # a tool message: the call it answers
    # Images the message shows, before its text: prepared files (checked and scaled down by
    # app/core/chat/images.py) that a model with a projector reads; a text-only model refuses them.
    images: tuple[Path, ...] = ()
