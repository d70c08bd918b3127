"""A message of a conversation as the engine renders it into a prompt."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ChatMessage:
    role: str  # "system", "user" or "assistant"
    content: str
    reasoning: str = ""  # an assistant message's reasoning, for templates that render past reasoning
    # Images the message shows, before its text: prepared files (checked and scaled down by
    # app/core/chat/images.py) that a model with a projector reads; a text-only model refuses them.
    images: tuple[Path, ...] = ()
