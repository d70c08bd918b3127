"""Tool calls in the window's turn, against a scripted model and a stand-in MCP server (no model, no server).

The chat has the "clock" server on; the scripted model calls its tool `now` once, then answers. Each
call shows as a step of the reply with its tool, server and arguments, and waits for the user's
Allow once / Always allow this tool / Deny; its result is folded under it. Stop while it waits or
while it runs ends the turn as stopped, and nothing that was not allowed runs.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import Slot
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.chat.store import MessageState
from app.core.paths import app_paths
from app.core.tools.config import McpServer
from app.core.tools.connection import ToolInfo
from app.core.tools.errors import CallStopped
from app.core.tools.manager import McpManager
from app.core.tools.results import PartKind, ResultPart, ToolResult
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.tools import ToolSpec
from app.ui.chat.tool_call_step import ALWAYS, DENY, ONCE, SavedCall, ToolCallStep, saved_calls
from app.ui.llm.worker import LlmThread, ReplyRequest
from app.ui.settings.store import SettingsStore
from app.ui.shell.main_window import MainWindow
from app.ui.tools.always_allowed import AlwaysAllowedTools
from tests.helpers.windows import WindowOpener
from tests.ui.turn.scripted_worker import ScriptedWorker

END_MS = 20_000
CALL = '<tool_call>{"name": "now", "arguments": {"zone": "UTC"}}</tool_call>'
ANSWER = "It is noon."
NOW = ToolSpec("now", "The time now.", '{"type": "object", "properties": {}}')


class ToolModelWorker(ScriptedWorker):
    """Loads nothing; with tools offered it calls `now` until it has read a result, then answers. Its
    tokens are words; each prompt it is given is 40 of them."""

    def __init__(self) -> None:
        super().__init__()
        self.planned: list[PlanRequest] = []

    def plan(self, request: PlanRequest) -> PlanResult:
        self.planned.append(request)
        return super().plan(request)

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    @Slot(object)
    def _load(self, config: LoadConfig) -> None:
        self.loadStarted.emit(config)
        self.loaded.emit(LoadReport(config))

    def stream_reply(self, request: ReplyRequest, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        self.requests.append(request)
        calls = bool(request.tools) and request.messages[-1].role != "tool"
        text = CALL if calls else ANSWER
        for index in range(0, len(text), 8):
            emit(TokenPiece(text[index : index + 8], index))
        emit(ReplyDone(text, ReplyStats(prompt_tokens=40, completion_tokens=3, stop_reason=StopReason.END_OF_TEXT)))


class ClockServer(McpManager):
    """Stands in for an MCP server named "clock" with one tool, `now`; `hang` makes a call wait for its Stop."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []
        self.hang = False
        self.running = threading.Event()
        super().__init__()

    def configure(self, servers: Iterable[McpServer]) -> None:
        self.configured = [server.name for server in servers]

    def tools(self, name: str) -> tuple[ToolInfo, ...]:
        schema = {"type": "object", "properties": {"zone": {"type": "string"}}}
        return (ToolInfo(name, "now", "", "The time now.", schema),)

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
        self.running.set()
        if self.hang and stop is not None:
            stop.wait(END_MS / 1000)
            raise CallStopped("stopped")
        text = '{"datetime": "2026-12-04T12:00:00+00:00"}'
        return ToolResult((ResultPart(PartKind.TEXT, text),), False, len(text), 100_000, False)


@pytest.fixture
def clock() -> Iterator[ClockServer]:
    server = ClockServer()
    yield server
    server.close()


@pytest.fixture
def window(open_main_window: WindowOpener, clock: ClockServer) -> MainWindow:
    config = app_paths().ensure().config / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"clock": {"command": "clock-server"}}}), encoding="utf-8")
    main = open_main_window(LlmThread(ToolModelWorker()))
    main.chats.replies.mcp_manager = lambda: clock
    store = main.settings_store
    store.edit_chat(replace(store.chat, tool_servers=("clock",)))
    return main


def steps(window: MainWindow) -> list[ToolCallStep]:
    return window.chat_view.findChildren(ToolCallStep)


def asked_step(window: MainWindow, qtbot: QtBot) -> ToolCallStep:
    qtbot.waitUntil(lambda: any(step.asking for step in steps(window)), timeout=END_MS)
    return next(step for step in steps(window) if step.asking)


def test_a_call_is_shown_asked_and_run_once_allowed(window: MainWindow, qtbot: QtBot, clock: ClockServer) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        step = asked_step(window, qtbot)
        assert step.title.text() == "Tool call: now on clock"
        assert json.loads(step.arguments.toPlainText()) == {"zone": "UTC"}
        assert step.arguments.toPlainText() == '{\n  "zone": "UTC"\n}'
        assert clock.calls == []  # nothing runs before the user says so
        step.buttons[ONCE].click()
    assert clock.calls == [("clock", "now", {"zone": "UTC"})]
    reply = window.chats.session.shown_thread[-1]
    assert (reply.text, reply.state) == (ANSWER, MessageState.COMPLETE)
    assert "<tool_call>" not in window.chat_view.messages()[-1].text
    assert step.result_toggle is not None and step.result is not None
    assert step.result_toggle.text().startswith("Result · 2 tokens · 41 characters")
    assert step.result.isHidden()  # folded until asked for
    step.result_toggle.click()
    assert step.result.toPlainText() == '{"datetime": "2026-12-04T12:00:00+00:00"}'


def test_the_turn_is_planned_with_the_tools_offered_and_the_meter_shows_the_result_read(
    window: MainWindow, qtbot: QtBot, clock: ClockServer
) -> None:
    worker = window.chats.replies.worker
    assert isinstance(worker, ToolModelWorker)
    shown: list[PlanResult] = []
    window.chats.replies.planShown.connect(shown.append)
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        asked_step(window, qtbot).buttons[ONCE].click()
    reply_plan = next(request for request in worker.planned if request.purpose == "reply")
    assert [tool.name for tool in reply_plan.tools] == ["now"]  # listed before the plan, so it counts them
    assert [result.plan.tool_result_tokens for result in shown if result.plan is not None] == [0, 2]
    grown = shown[-1].plan
    assert grown is not None and grown.prompt_tokens == 40 + 3 + 2  # the round's prompt, its call, the result
    assert window.chats.meter.plan is not None  # the meter shows the next turn's window again


def test_the_meter_counts_the_tools_of_the_chats_running_servers(
    window: MainWindow, qtbot: QtBot, clock: ClockServer
) -> None:
    worker = window.chats.replies.worker
    assert isinstance(worker, ToolModelWorker)
    window.chats.offered_tools = lambda: (NOW,)
    window.chats.measure_now()
    qtbot.waitUntil(lambda: any(r.purpose == "meter" and r.tools == (NOW,) for r in worker.planned), timeout=END_MS)


def test_a_denied_call_does_not_run_and_the_model_reads_why(
    window: MainWindow, qtbot: QtBot, clock: ClockServer
) -> None:
    worker = window.chats.replies.worker
    assert isinstance(worker, ToolModelWorker)
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        step = asked_step(window, qtbot)
        step.buttons[DENY].click()
    assert clock.calls == []
    assert worker.requests[-1].messages[-1].content == "The user denied this call."
    assert step.result_toggle is not None
    assert step.result_toggle.text() == "Error: The user denied this call."
    assert window.chats.session.shown_thread[-1].text == ANSWER


def test_always_allow_runs_the_tool_unasked_for_the_rest_of_the_session(
    window: MainWindow, qtbot: QtBot, clock: ClockServer
) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        asked_step(window, qtbot).buttons[ALWAYS].click()
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("And now?")
    assert len(clock.calls) == 2
    last = steps(window)[-1]
    assert not last.asking and last.result_toggle is not None


def test_always_allow_is_kept_in_the_settings_file_and_taken_back_on_the_mcp_page(
    window: MainWindow, qtbot: QtBot, clock: ClockServer
) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        asked_step(window, qtbot).buttons[ALWAYS].click()
    store = window.settings_store
    assert store.settings.tools_always_allowed == (("clock", "now"),)
    path = app_paths().settings_file
    qtbot.waitUntil(lambda: path.exists() and "tools_always_allowed" in path.read_text(encoding="utf-8"))
    restarted = SettingsStore.from_file(path)
    assert restarted.settings.tools_always_allowed == (("clock", "now"),)  # it holds after a restart

    page_list = AlwaysAllowedTools(store)
    qtbot.addWidget(page_list)
    assert page_list.list.item(0).text() == "now on clock"
    page_list.list.setCurrentRow(0)
    page_list.ask_button.click()
    assert store.settings.tools_always_allowed == ()
    assert not page_list.ask_button.isEnabled()
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("And now?")
        asked_step(window, qtbot).buttons[ONCE].click()  # asked again
    assert len(clock.calls) == 2


def test_stop_while_a_call_waits_for_an_answer_runs_nothing(
    window: MainWindow, qtbot: QtBot, clock: ClockServer
) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS) as ended:
        window.send("What time is it?")
        step = asked_step(window, qtbot)
        window.chats.replies.stop()
    assert clock.calls == []
    done = ended.args[0] if ended.args else None
    assert isinstance(done, ReplyDone) and done.stats.stop_reason is StopReason.USER
    assert not step.asking


def test_stop_during_a_call_cancels_it_and_ends_the_turn(window: MainWindow, qtbot: QtBot, clock: ClockServer) -> None:
    clock.hang = True
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS) as ended:
        window.send("What time is it?")
        asked_step(window, qtbot).buttons[ONCE].click()
        qtbot.waitUntil(clock.running.is_set, timeout=END_MS)
        window.chats.replies.stop()
    done = ended.args[0] if ended.args else None
    assert isinstance(done, ReplyDone) and done.stats.stop_reason is StopReason.USER
    step = steps(window)[-1]
    assert step.result_toggle is not None and step.result_toggle.text() == "Error: The call was stopped."


def test_a_chat_without_tool_servers_offers_no_tools(window: MainWindow, qtbot: QtBot, clock: ClockServer) -> None:
    store = window.settings_store
    store.edit_chat(replace(store.chat, tool_servers=()))
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
    worker = window.chats.replies.worker
    assert isinstance(worker, ToolModelWorker)
    assert worker.requests[-1].tools == ()
    assert steps(window) == [] and clock.calls == []


@pytest.mark.expected_log("app.errors", logging.ERROR, "not in mcp.json any more")
def test_a_server_not_in_mcp_json_fails_the_turn_saying_so(window: MainWindow, qtbot: QtBot) -> None:
    store = window.settings_store
    store.edit_chat(replace(store.chat, tool_servers=("gone",)))
    with qtbot.waitSignal(window.chats.replies.turns.failed, timeout=END_MS) as failed:
        window.send("What time is it?")
    assert "“gone”" in str(failed.args[1]) and "mcp.json" in str(failed.args[1])


def test_the_calls_are_kept_with_the_reply_and_shown_when_the_chat_is_opened_again(
    window: MainWindow, qtbot: QtBot
) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        asked_step(window, qtbot).buttons[ONCE].click()
    saved = window.chats.session.shown_thread[-1].stats["tool_calls"]
    assert [(c["server"], c["tool"], json.loads(c["arguments"]), c["is_error"]) for c in saved] == [
        ("clock", "now", {"zone": "UTC"}, False)
    ]
    chat_id = window.chats.session.chat.id
    window.new_chat()
    qtbot.waitUntil(lambda: steps(window) == [], timeout=END_MS)  # gone with the chat's messages
    window.chats.open_chat(chat_id)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=END_MS)
    (step,) = steps(window)
    assert step.title.text() == "Tool call: now on clock" and not step.asking
    assert step.result is not None and step.result.toPlainText() == '{"datetime": "2026-12-04T12:00:00+00:00"}'


def test_a_saved_call_of_another_shape_is_left_out() -> None:
    stats = {"tool_calls": [{"server": "clock", "tool": "now", "arguments": "{}"}, {"tool": 3}, "call"]}
    assert saved_calls(stats) == [SavedCall("clock", "now", "{}")]
    assert saved_calls({"tool_calls": "none"}) == [] and saved_calls(None) == []
