"""The window's Tools → MCP servers… action: the page opens on first use, and its worker ends with the window."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.ui.settings.store import SettingsStore
from app.ui.tools.opener import McpServersOpener
from tests.core.tools.conftest import python_server
from tests.fakes.memory_keyring import MemoryKeyring
from tests.repo import REPO_ROOT

# In a fresh interpreter: what a loaded model's first context meter asks of the opener, then whether the MCP SDK
# (about a second to import, on the GUI thread) was imported for it.
ASKED_BEFORE_ANY_SERVER_RUNS = (
    "import sys\n"
    "from dataclasses import replace\n"
    "from PySide6.QtWidgets import QApplication, QWidget\n"
    "from app.ui.settings.store import SettingsStore\n"
    "from app.ui.tools.opener import McpServersOpener\n"
    "app = QApplication([])\n"
    "store = SettingsStore()\n"
    "store.edit_chat(replace(store.chat, tool_servers=('time',)))\n"
    "opener = McpServersOpener(QWidget(), store)\n"
    "print(opener.chat_tools(), opener.server_tools('time'), sorted(m for m in sys.modules if m.startswith('mcp')))\n"
)


def test_the_page_and_its_worker_start_on_first_use_and_stop_with_the_window(
    qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    opener = McpServersOpener(window)
    assert opener.threads() == []  # nothing runs (nor is imported) until the page is opened

    opener.open_page()
    opener.open_page()  # the same page again

    assert opener.page is not None and opener.page.isVisible()
    [thread] = opener.threads()
    opener.request_stop()
    assert thread.wait(30_000)


def test_the_tools_a_chat_offers_are_known_only_from_servers_that_run_and_none_is_started_to_know_them(
    qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    store = SettingsStore()
    store.edit_chat(replace(store.chat, tool_servers=("time",)))
    opener = McpServersOpener(window, store)
    assert opener.running_tools(["time"]) == opener.chat_tools() == ()
    assert opener.threads() == []  # asking started nothing

    manager = opener.manager()
    manager.configure([python_server("time", "mcp-server-time", "--local-timezone", "UTC")])
    assert opener.running_tools(["time", "gone"]) == ()  # configured, not started; "gone" is not configured
    manager.start("time")
    names = [tool.name for tool in opener.running_tools(["time", "gone"])]
    assert names == ["get_current_time", "convert_time"]
    assert '"timezone"' in opener.running_tools(["time"])[0].parameters_json
    assert [tool.name for tool in opener.chat_tools()] == names  # the chat on show has the time server on
    opener.request_stop()
    assert opener.threads()[0].wait(30_000)


def test_asking_for_the_tools_before_any_server_runs_imports_no_mcp_sdk(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", ASKED_BEFORE_ANY_SERVER_RUNS],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
        env={**os.environ, "GLASSBOX_HOME": str(tmp_path)},
        timeout=120,
    )
    assert run.stdout.split() == ["()", "None", "[]"]


def test_the_page_lists_the_tools_always_allowed_to_take_them_back(qtbot: QtBot, memory_keyring: MemoryKeyring) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    store = SettingsStore()
    store.set_defaults(store.settings.with_tool_always_allowed("time", "get_current_time"))
    opener = McpServersOpener(window, store)
    opener.open_page()
    assert opener.page is not None and opener.page.always_allowed is not None
    listed = opener.page.always_allowed.list
    assert [listed.item(row).text() for row in range(listed.count())] == ["get_current_time on time"]
    listed.setCurrentRow(0)
    opener.page.always_allowed.ask_button.click()
    assert store.settings.tools_always_allowed == ()
    assert listed.item(0).text() == "None: every call is asked about"
    opener.request_stop()
    assert opener.threads()[0].wait(30_000)


def test_a_running_servers_tools_are_listed_for_the_chats_menu_and_the_meter_counts_only_those_on(
    qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    store = SettingsStore()
    store.edit_chat(replace(store.chat, tool_servers=("time",)).with_tool("time", "convert_time", False))
    opener = McpServersOpener(window, store)
    assert opener.server_tools("time") is None  # nothing runs, nor is started to know
    manager = opener.manager()
    manager.configure([python_server("time", "mcp-server-time", "--local-timezone", "UTC")])
    assert opener.server_tools("time") is None and opener.server_tools("gone") is None
    manager.start("time")
    listed = opener.server_tools("time")
    assert listed is not None and [tool.name for tool in listed] == ["get_current_time", "convert_time"]
    assert [tool.name for tool in opener.chat_tools()] == ["get_current_time"]  # switched off in this chat
    opener.request_stop()
    assert opener.threads()[0].wait(30_000)
