"""Per chat, which tools of its MCP servers are on: the Tools button's menu lists a running server's tools
with a checkbox each, and a tool unchecked there is not offered in the chat's next turn (scripted model,
a stand-in "clock" server with the tools `now` and `zone`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app.core.paths import app_paths
from app.core.tools.connection import ToolInfo
from app.core.turn.tool_rounds import offered_tools
from app.core.types.tools import ToolSpec
from app.ui.chat.tool_call_step import ONCE
from app.ui.llm.worker import LlmThread
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WindowOpener
from tests.ui.turn.test_tool_calls_in_window import END_MS, ClockServer, ToolModelWorker, asked_step

OBJECT = {"type": "object", "properties": {"zone": {"type": "string"}}}


class TwoToolClock(ClockServer):
    def tools(self, name: str) -> tuple[ToolInfo, ...]:
        return (ToolInfo(name, "now", "", "The time now.", OBJECT), ToolInfo(name, "zone", "", "The zone.", OBJECT))

    def specs(self, name: str) -> tuple[ToolSpec, ...]:
        """The server's tools as the window lists those of a running server."""
        return tuple(tool.spec for tool in offered_tools(self.tools(name)))


@pytest.fixture
def clock() -> Iterator[TwoToolClock]:
    server = TwoToolClock()
    yield server
    server.close()


@pytest.fixture
def window(open_main_window: WindowOpener, clock: TwoToolClock) -> MainWindow:
    config = app_paths().ensure().config / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"clock": {"command": "clock-server"}}}), encoding="utf-8")
    main = open_main_window(LlmThread(ToolModelWorker()))
    main.chats.replies.mcp_manager = lambda: clock
    main.chats.settings_panel.tools.server_tools = lambda name: clock.specs(name) if name == "clock" else None
    store = main.settings_store
    store.edit_chat(replace(store.chat, tool_servers=("clock",)))
    return main


def test_a_tool_unchecked_in_the_menu_is_left_out_of_the_next_turn_and_its_call_does_not_run(
    window: MainWindow, qtbot: QtBot, clock: TwoToolClock
) -> None:
    worker = window.chats.replies.worker
    assert isinstance(worker, ToolModelWorker)
    button = window.chats.settings_panel.tools
    button.fill_menu()
    boxes = button.tool_boxes("clock")
    assert {name: box.isChecked() for name, box in boxes.items()} == {"now": True, "zone": True}
    assert button.text() == "Tools: clock (2 of 2)"

    boxes["now"].setChecked(False)

    assert window.settings_store.chat.tools_off == (("clock", "now"),)
    assert button.text() == "Tools: clock (1 of 2)"
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")  # the scripted model calls `now` whenever it is offered tools
    assert [tool.name for tool in worker.requests[0].tools] == ["zone"]
    reply_plan = next(request for request in worker.planned if request.purpose == "reply")
    assert [tool.name for tool in reply_plan.tools] == ["zone"]  # the window counts only the tools on
    assert clock.calls == []
    assert worker.requests[1].messages[-1].content == "There is no tool named now."


def test_a_tool_checked_again_is_offered_again(window: MainWindow, qtbot: QtBot, clock: TwoToolClock) -> None:
    store = window.settings_store
    store.edit_chat(store.chat.with_tool("clock", "now", False))
    button = window.chats.settings_panel.tools
    button.fill_menu()
    assert not button.tool_boxes("clock")["now"].isChecked()
    button.tool_boxes("clock")["now"].setChecked(True)
    assert store.chat.tools_off == ()
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("What time is it?")
        asked_step(window, qtbot).buttons[ONCE].click()
    assert clock.calls == [("clock", "now", {"zone": "UTC"})]
