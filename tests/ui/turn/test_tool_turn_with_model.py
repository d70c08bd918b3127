"""The window's tool turn with the starter model and the real `mcp-server-time`: the chat's server is
started from mcp.json, its tools go to the model through its template, and the turn ends with one
saved reply; any call the model makes is asked first and shown as a step with its result."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app.core.chat.store import MessageState
from app.core.paths import app_paths
from app.ui.chat.tool_call_step import ONCE, ToolCallStep
from tests.core.tools.conftest import python_server
from tests.helpers.windows import WindowOpener

END_MS = 120_000


@pytest.mark.requires_model
def test_a_chat_with_the_time_server_on_ends_its_turn_with_every_call_asked(
    open_main_window: WindowOpener, qtbot: QtBot
) -> None:
    server = python_server("time", "mcp-server-time", "--local-timezone", "UTC")
    entry = {"command": server.command, "args": list(server.args)}
    (app_paths().ensure().config / "mcp.json").write_text(json.dumps({"mcpServers": {"time": entry}}), "utf-8")
    window = open_main_window(greedy_tokens=48)
    store = window.settings_store
    store.edit_chat(replace(store.chat, tool_servers=("time",)))

    def allow(_request: object) -> None:
        for step in window.chat_view.findChildren(ToolCallStep):
            if step.asking:
                step.buttons[ONCE].click()

    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it in UTC? Use the tool.")
        qtbot.waitUntil(lambda: window.chats.replies.tool_steps is not None, timeout=END_MS)
        steps = window.chats.replies.tool_steps
        assert steps is not None
        steps.events.asked.connect(allow)
    reply = window.chats.session.shown_thread[-1]
    assert reply.state is MessageState.COMPLETE
    calls = reply.stats.get("tool_calls", [])
    shown = window.chat_view.findChildren(ToolCallStep)
    assert len(shown) == len(calls)
    assert all(step.result_toggle is not None and not step.asking for step in shown)
    assert all(call["tokens"] > 0 for call in calls if call["result"])  # counted by the model's tokenizer
    assert window.mcp_servers.mcp is not None  # the servers' worker was started for the chat
