"""Bench section `tools`: what a tool call adds to a turn beyond the tool's own run time.

Per call, in a turn's order: the server's listing made into the model's tools, the grammar of a
forced call from the tool's schema, the call read from the reply's text, and the round trip to a
real MCP server over stdio (mcp-server-time's `get_current_time`, whose own work is reading the
clock, so the round trip is the overhead). The server is started before the rounds: it starts once
per chat, not per call. Generation is not timed here (the model writes the call as any text).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.core.reasoning.tool_calls import parse_tool_calls
from app.core.reasoning.tool_formats import ToolFamily
from app.core.reasoning.tool_grammar import tool_call_grammar
from app.core.tools.config import McpServer
from app.core.tools.manager import McpManager
from app.core.turn.tool_rounds import offered_tools

SECTION = "tools"
TARGET = "<= 50"
METRIC = "tool call overhead beyond the tool's run (per call)"
TOOL = "get_current_time"
REPLY = '<tool_call>\n{"name": "get_current_time", "arguments": {"timezone": "UTC"}}\n</tool_call>'


def run(context: BenchContext) -> list[BenchRow]:
    server = Path(sys.executable).parent / "mcp-server-time"
    if not server.exists():
        return [not_measured(SECTION, METRIC, "mcp-server-time is not installed (the test extra)", "ms", TARGET)]
    manager = McpManager([McpServer("time", command=str(server), args=("--local-timezone", "UTC"))])
    try:
        infos = manager.tools("time")
        totals: list[float] = []
        round_trips: list[float] = []
        loop = context.rounds(10 if context.quick else 30, calibrated=False)
        loop.judge(TARGET, lambda: totals)
        for _index in loop:
            started = time.perf_counter()
            tools = offered_tools(infos)
            tool_call_grammar(ToolFamily.HERMES, [tool.spec for tool in tools if tool.spec.name == TOOL])
            [call] = parse_tool_calls(REPLY, ToolFamily.HERMES).calls
            sent = time.perf_counter()
            result = manager.call("time", call.name, call.parsed_arguments)
            ended = time.perf_counter()
            if result.is_error:
                raise RuntimeError(f"mcp-server-time refused the call: {result.text()}")
            totals.append((ended - started) * 1000)
            round_trips.append((ended - sent) * 1000)
    finally:
        manager.close()
    context.details[SECTION] = {"total_ms": totals, "round_trip_ms": round_trips}
    return [
        judged(SECTION, METRIC, totals, "ms", TARGET),
        row(SECTION, "of which the MCP round trip (median)", sorted(round_trips)[len(round_trips) // 2], "ms"),
    ]
