"""Tools → MCP servers…: a user adds, starts, tests, stops, edits, imports and removes servers, offscreen."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from pytestqt.qtbot import QtBot

from app.core.tools.config import REFERENCE_PREFIX, McpConfig
from app.ui.tools.page import KEPT, NAME_ROLE, McpServersPage
from app.ui.tools.worker import McpThread
from tests.core.tools.conftest import HERE, VENV_BIN
from tests.core.tools.misbehaving_server import TOOLS
from tests.fakes.memory_keyring import MemoryKeyring

WAIT_MS = 30_000


@pytest.fixture
def page(qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[McpServersPage]:
    mcp = McpThread()
    window = McpServersPage(mcp)
    qtbot.addWidget(window)
    try:
        yield window
    finally:
        mcp.request_stop()
        assert mcp.thread.wait(30_000)


def _select(page: McpServersPage, name: str) -> None:
    for row in range(page.list.count()):
        if page.list.item(row).data(NAME_ROLE) == name:
            page.list.setCurrentRow(row)
            return
    raise AssertionError(f"{name} is not listed")


def test_a_saved_server_starts_lists_its_tools_with_schemas_and_stops(page: McpServersPage, qtbot: QtBot) -> None:
    qtbot.keyClicks(page.name, "time")
    page.command.setText(f"{VENV_BIN / 'mcp-server-time'} --local-timezone UTC")
    page.env.setPlainText("TZ_TOKEN=abc123")
    page.save_button.click()

    assert "Saved time." in page.outcome.text()
    written = McpConfig().path.read_text()
    assert "abc123" not in written and REFERENCE_PREFIX in written

    page.start_button.click()
    qtbot.waitUntil(lambda: page.state.text() == "running, 2 tool(s)", timeout=WAIT_MS)
    assert page.list.item(0).text() == "time — running"
    names = [page.tools.topLevelItem(row).text(0) for row in range(page.tools.topLevelItemCount())]
    assert names == ["get_current_time", "convert_time"]
    page.tools.setCurrentItem(page.tools.topLevelItem(1))
    assert json.loads(page.schema.toPlainText())["required"] == ["source_timezone", "time", "target_timezone"]

    page.stop_button.click()
    qtbot.waitUntil(lambda: page.state.text() == "stopped", timeout=WAIT_MS)
    assert page.tools.topLevelItemCount() == 0


def test_a_server_that_cannot_start_shows_why(page: McpServersPage, qtbot: QtBot) -> None:
    page.name.setText("ghost")
    page.command.setText("glassbox-no-such-mcp-server --flag")
    page.save_button.click()

    page.test_button.click()

    qtbot.waitUntil(lambda: page.state.text().startswith("failed:"), timeout=WAIT_MS)
    assert "glassbox-no-such-mcp-server was not found" in page.state.text()
    assert page.list.item(0).text() == "ghost — failed"


def test_editing_a_server_keeps_its_masked_secrets(page: McpServersPage, memory_keyring: MemoryKeyring) -> None:
    page.name.setText("docs")
    page.url.setText("https://docs.example.org/mcp")
    page.headers.setPlainText("Authorization: Bearer s3cret")
    page.save_button.click()
    _select(page, "docs")
    assert page.headers.toPlainText() == f"Authorization: {KEPT}"

    page.url.setText("https://docs.example.org/v2/mcp")
    page.save_button.click()

    [server] = McpConfig().load()
    assert server.url == "https://docs.example.org/v2/mcp"
    assert server.headers == (("Authorization", "Bearer s3cret"),)


def test_bad_input_is_said_and_nothing_is_saved(page: McpServersPage) -> None:
    page.name.setText("both")
    page.command.setText("uvx thing")
    page.url.setText("https://example.org/mcp")
    page.save_button.click()
    assert "a command or an address, not both" in page.outcome.text()

    page.url.clear()
    page.env.setPlainText("NO_EQUALS_SIGN")
    page.save_button.click()
    assert "Line 1 is not NAME=value" in page.outcome.text()
    assert not McpConfig().path.exists()
    assert page.command.text() == "uvx thing"  # the form keeps what was typed


def test_import_from_a_claude_desktop_file_adds_its_servers(page: McpServersPage, tmp_path: Path) -> None:
    claude = tmp_path / "claude_desktop_config.json"
    claude.write_text(
        json.dumps({"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}, "bad": {"args": []}}})
    )

    page.import_from(claude)

    assert [server.name for server in McpConfig().load()] == ["time"]
    assert page.list.count() == 1
    assert "Imported from" in page.outcome.text() and "“bad” has neither a “command” nor a “url”" in page.outcome.text()


def test_a_malformed_mcp_json_is_said_and_left_alone(qtbot: QtBot, memory_keyring: MemoryKeyring) -> None:
    path = McpConfig().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{broken")
    mcp = McpThread()
    page = McpServersPage(mcp)
    qtbot.addWidget(page)
    try:
        assert "mcp.json was not changed" in page.outcome.text()
        assert not page.save_button.isEnabled()
        assert path.read_text() == "{broken"
    finally:
        mcp.request_stop()
        assert mcp.thread.wait(30_000)


def test_removing_a_server_stops_it(page: McpServersPage, qtbot: QtBot) -> None:
    page.name.setText("time")
    page.command.setText(str(VENV_BIN / "mcp-server-time"))
    page.save_button.click()
    page.start_button.click()
    qtbot.waitUntil(lambda: page.state.text().startswith("running"), timeout=WAIT_MS)

    assert _running("mcp-server-time")

    page.remove_button.click()

    assert McpConfig().load() == []
    assert page.list.count() == 0
    qtbot.waitUntil(lambda: not _running("mcp-server-time"), timeout=WAIT_MS)


def _running(command: str) -> list[psutil.Process]:
    """This test's child processes that run `command` (a process that ended is not running)."""
    children = psutil.Process().children(recursive=True)
    return [child for child in children if _runs(child, command)]


def _runs(process: psutil.Process, command: str) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE and any(command in part for part in process.cmdline())
    except psutil.NoSuchProcess:
        return False


def test_a_servers_words_are_shown_as_text_and_a_tool_that_cannot_be_called_says_why(
    page: McpServersPage, qtbot: QtBot
) -> None:
    page.name.setText("odd")
    page.command.setText(f"{sys.executable} {HERE / 'misbehaving_server.py'}")
    page.save_button.click()

    page.test_button.click()

    qtbot.waitUntil(lambda: page.tools.topLevelItemCount() == len(TOOLS), timeout=WAIT_MS)
    rows = {page.tools.topLevelItem(row).text(0): page.tools.topLevelItem(row) for row in range(len(TOOLS))}
    assert "&lt;img src=" in rows["huge"].toolTip(1)
    assert "<img" not in rows["huge"].toolTip(1)
    assert rows["broken"].text(1).startswith("cannot be called: its input schema is not a valid JSON schema")
