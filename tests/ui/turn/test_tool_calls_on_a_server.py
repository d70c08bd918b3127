"""Tool calls in the window's turn with a model on a server: the same chat as with the model on this computer.

The worker's real reply path talks to a scripted OpenAI-compatible server: the chat's tools go in the
request, the server's structured call shows as a step and waits for the user, and its result goes back
as a `tool` message with the call's id. A server that refuses tools is named in one line, and the
reply is written without them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.core.backends.remote import RemoteBackend, RemoteConfig
from app.core.chat.store import MessageState
from app.core.paths import app_paths
from app.ui.chat.tool_call_step import ONCE
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.shell.main_window import MainWindow
from tests.core.backends.test_remote_tool_calls import call_delta, chunk
from tests.helpers.canned_server import DONE, FINISH, Canned, CannedServer, piece
from tests.helpers.windows import WindowOpener
from tests.ui.turn.test_tool_calls_in_window import END_MS, ClockServer, ToolModelWorker, asked_step, steps

CALL_STREAM = (
    chunk(call_delta(0, id="call_now_1", type="function", name="now", arguments='{"zo'))
    + chunk(call_delta(0, arguments='ne": "UTC"}'))
    + chunk({}, "tool_calls")
    + DONE
)
ANSWER_STREAM = piece("It is ") + piece("noon.") + FINISH + DONE


class ServerModelWorker(ToolModelWorker):
    """Loads and plans as the scripted worker does; writes its replies as the real worker does, with a
    model on the server at `url` on duty."""

    stream_reply = LlmWorker.stream_reply

    def __init__(self, url: str) -> None:
        super().__init__()
        self.remote = RemoteBackend(RemoteConfig(url, timeout_s=30))
        self.remote.select_model("m")


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


@pytest.fixture
def clock() -> Iterator[ClockServer]:
    server = ClockServer()
    yield server
    server.close()


@pytest.fixture
def window(open_main_window: WindowOpener, clock: ClockServer, canned: CannedServer) -> MainWindow:
    config = app_paths().ensure().config / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"clock": {"command": "clock-server"}}}), encoding="utf-8")
    main = open_main_window(LlmThread(ServerModelWorker(canned.url)))
    main.chats.replies.mcp_manager = lambda: clock
    store = main.settings_store
    store.edit_chat(replace(store.chat, tool_servers=("clock",)))
    return main


def sent(canned: CannedServer, number: int) -> dict[str, Any]:
    body = json.loads(canned.bodies[number])
    assert isinstance(body, dict)
    return body


def test_a_servers_model_is_offered_the_tools_and_its_call_is_asked_run_and_answered(
    window: MainWindow, qtbot: QtBot, clock: ClockServer, canned: CannedServer
) -> None:
    canned.first_replies = [Canned(body=CALL_STREAM)]
    canned.reply = Canned(body=ANSWER_STREAM)
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        step = asked_step(window, qtbot)
        assert step.title.text() == "Tool call: now on clock"
        assert json.loads(step.arguments.toPlainText()) == {"zone": "UTC"}
        assert clock.calls == []  # nothing runs before the user says so
        step.buttons[ONCE].click()

    assert clock.calls == [("clock", "now", {"zone": "UTC"})]
    reply = window.chats.session.shown_thread[-1]
    assert (reply.text, reply.state) == ("It is noon.", MessageState.COMPLETE)
    offered = sent(canned, 0)
    assert [tool["function"]["name"] for tool in offered["tools"]] == ["now"]
    assert sent(canned, 1)["messages"][-2:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "call_now_1", "type": "function", "function": {"name": "now", "arguments": '{"zone": "UTC"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_now_1", "content": '{"datetime": "2026-12-04T12:00:00+00:00"}'},
    ]


def test_a_server_that_refuses_tools_is_named_and_the_reply_is_written_without_them(
    window: MainWindow, qtbot: QtBot, clock: ClockServer, canned: CannedServer
) -> None:
    refusal = {"error": {"message": "registry.ollama.ai/library/gemma3:270m does not support tools"}}
    canned.first_replies = [Canned(status=400, body=json.dumps(refusal).encode(), content_type="application/json")]
    canned.reply = Canned(body=ANSWER_STREAM)
    notices: list[str] = []
    window.chats.replies.worker.notice.connect(notices.append)
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")

    reply = window.chats.session.shown_thread[-1]
    assert (reply.text, reply.state) == ("It is noon.", MessageState.COMPLETE)
    assert steps(window) == [] and clock.calls == []
    assert [notice for notice in notices if "tools" in notice] == [
        f"{canned.url}/v1 refused the tools (400: registry.ollama.ai/library/gemma3:270m does not support tools); "
        "this reply was written without them."
    ]
    assert "tools" not in sent(canned, 1)
