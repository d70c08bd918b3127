"""A tool's result as Glassbox keeps it: inert parts (text, image bytes, a note), capped in size, the cap said.

Nothing in a result is loaded or followed: an image is kept as its bytes and MIME type for a
thumbnail, a linked or embedded resource as a line naming it, never fetched. What is past the cap is
dropped and a note at the end says how much the whole result was and where it was cut.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

import mcp_types

from app.core.support.formatting import fill, format_bytes
from app.core.support.user_text import N_

DEFAULT_CAP_BYTES = 256 * 1024  # what a result may keep: enough for a page of text or a screenshot


class PartKind(Enum):
    TEXT = "text"
    IMAGE = "image"
    NOTE = "note"  # what Glassbox says about the result (a resource not fetched, the cap)


@dataclass(frozen=True)
class ResultPart:
    kind: PartKind
    text: str = ""  # TEXT and NOTE
    mime_type: str = ""  # IMAGE
    data: bytes = b""  # IMAGE: the decoded bytes, never opened here

    @property
    def size(self) -> int:
        return len(self.data) if self.kind is PartKind.IMAGE else len(self.text.encode("utf-8"))


@dataclass(frozen=True)
class ToolResult:
    """What one call gave back; `is_error` when the tool itself reported an error."""

    parts: tuple[ResultPart, ...]
    is_error: bool
    size_bytes: int  # the whole result as the server sent it (text bytes and decoded images)
    cap_bytes: int
    truncated: bool

    def images(self) -> list[bytes]:
        """The bytes of the result's images, in order (never opened here)."""
        return [part.data for part in self.parts if part.kind is PartKind.IMAGE]

    def text(self) -> str:
        """The result as text (what a terminal prints, what a model reads): images are named, not shown."""
        lines = []
        for part in self.parts:
            if part.kind is PartKind.IMAGE:
                lines.append(fill(N_("[image: {mime}, {size}]"), mime=part.mime_type, size=format_bytes(part.size)))
            else:
                lines.append(part.text)
        return "\n".join(lines)


def result_from_mcp(result: mcp_types.CallToolResult, cap_bytes: int = DEFAULT_CAP_BYTES) -> ToolResult:
    """Keep the parts in order until the cap; the rest is counted, dropped and said."""
    parts: list[ResultPart] = []
    kept = 0
    total = 0
    truncated = False
    blocks: list[ResultPart] = [_part(block) for block in result.content]
    if not blocks and result.structured_content is not None:
        blocks.append(ResultPart(PartKind.TEXT, text=json.dumps(result.structured_content, ensure_ascii=False)))
    for part in blocks:
        total += part.size
        room = cap_bytes - kept
        if part.size <= room:
            parts.append(part)
            kept += part.size
            continue
        truncated = True
        if part.kind is PartKind.TEXT and room > 0:
            cut = part.text.encode("utf-8")[:room].decode("utf-8", errors="ignore")
            parts.append(ResultPart(PartKind.TEXT, text=cut))
            kept += len(cut.encode("utf-8"))
    if truncated:
        parts.append(
            ResultPart(
                PartKind.NOTE,
                text=fill(
                    N_("[The result was {size}; Glassbox keeps {cap} of a tool's result, and cut the rest.]"),
                    size=format_bytes(total),
                    cap=format_bytes(cap_bytes),
                ),
            )
        )
    return ToolResult(tuple(parts), bool(result.is_error), total, cap_bytes, truncated)


def _part(block: Any) -> ResultPart:
    if isinstance(block, mcp_types.TextContent):
        return ResultPart(PartKind.TEXT, text=block.text)
    if isinstance(block, mcp_types.ImageContent):
        try:
            data = base64.b64decode(block.data, validate=True)
        except (binascii.Error, ValueError):
            return ResultPart(PartKind.NOTE, text=N_("[an image that is not valid base64, left out]"))
        return ResultPart(PartKind.IMAGE, mime_type=block.mime_type, data=data)
    if isinstance(block, mcp_types.ResourceLink):
        return ResultPart(PartKind.NOTE, text=fill(N_("[a link to {uri}, not followed]"), uri=str(block.uri)))
    if isinstance(block, mcp_types.EmbeddedResource):
        resource = block.resource
        if isinstance(resource, mcp_types.TextResourceContents):
            return ResultPart(PartKind.TEXT, text=resource.text)
        return ResultPart(PartKind.NOTE, text=fill(N_("[a binary resource {uri}, not opened]"), uri=str(resource.uri)))
    kind = getattr(block, "type", type(block).__name__)
    return ResultPart(PartKind.NOTE, text=fill(N_("[a {kind} part, not shown]"), kind=str(kind)))
