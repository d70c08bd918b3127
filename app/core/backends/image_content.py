"""A message's content as OpenAI's Chat Completions API carries it, images included.

A message without images is its text, as every server takes it. One with images is a list of
parts: each image as an `image_url` part with a data URL (the prepared PNG, app/core/chat/images.py),
then the text, the order in which Glassbox's own engine reads them. Servers whose model has a
projector read them (vLLM, llama-server with --mmproj, Ollama, LM Studio, Glassbox); the others
answer with their own refusal, which the remote backend reports.
"""

from __future__ import annotations

import base64
from typing import Any

from app.core.support.user_text import N_, fill
from app.core.types.errors import EngineError
from app.core.types.messages import ChatMessage


def message_content(message: ChatMessage) -> str | list[dict[str, Any]]:
    """`message`'s `content` field; EngineError when a prepared image can no longer be read."""
    if not message.images:
        return message.content
    parts: list[dict[str, Any]] = []
    for path in message.images:
        try:
            data = path.read_bytes()
        except OSError as error:
            raise EngineError(
                fill(N_("The image {path} cannot be read ({strerror})."), path=path, strerror=error.strerror or error)
            ) from error
        url = f"data:image/png;base64,{base64.b64encode(data).decode('ascii')}"
        parts.append({"type": "image_url", "image_url": {"url": url}})
    if message.content:
        parts.append({"type": "text", "text": message.content})
    return parts
