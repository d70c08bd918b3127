"""A stand-in for the MCP servers in tests of the turn's tool rounds (the servers' own tests run real ones)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from app.core.tools.results import PartKind, ResultPart, ToolResult


class AnsweringTool:
    """Answers every call at once with `text` and keeps each call as (server, tool, arguments)."""

    def __init__(self, text: str, cap_bytes: int = 4096) -> None:
        self.text = text
        self.cap_bytes = cap_bytes
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    def call(
        self,
        name: str,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> ToolResult:
        self.calls.append((name, tool, dict(arguments or {})))
        part = ResultPart(PartKind.TEXT, text=self.text)
        return ToolResult((part,), False, part.size, self.cap_bytes, False)
