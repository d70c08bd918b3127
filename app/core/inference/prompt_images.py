"""Where a message's images stand in its rendered prompt.

A message with images is rendered with one marker per image before its text (as llama-server
places a user's images); the marker carries a nonce of this process, so no text anyone sends
can spell it. After rendering, each marker is replaced by the image's tokens (projector.py).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence

from app.core.inference.projector import PromptImage
from app.core.inference.prompt_parts import PromptPart, RenderedPrompt

IMAGE_MARKER = f"<__image_{uuid.uuid4().hex}__>"
SHOWN_MARKER = "<__media__>"  # llama.cpp's own marker, for the prompt as text


def image_markers(count: int) -> str:
    """What a message's content starts with when it shows `count` images."""
    return IMAGE_MARKER * count + "\n" if count else ""


def shown(text: str) -> str:
    """The rendered prompt for people: each image as llama.cpp's media marker."""
    return text.replace(IMAGE_MARKER, SHOWN_MARKER)


def with_images(rendered: RenderedPrompt, images: Sequence[PromptImage]) -> RenderedPrompt:
    """`rendered` with its image markers, in order, replaced by `images`' tokens."""
    left = list(images)
    parts: list[PromptPart] = []
    for part in rendered.parts:
        if not part.content or IMAGE_MARKER not in part.text:
            parts.append(part)
            continue
        for index, text in enumerate(re.split(re.escape(IMAGE_MARKER), part.text)):
            if index:
                parts.append(PromptPart(IMAGE_MARKER, content=False, tokens=left.pop(0).tokens))
            if text:
                parts.append(PromptPart(text, content=True))
    return RenderedPrompt(tuple(parts), rendered.added_special)
