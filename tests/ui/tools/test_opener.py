"""The window's Tools → MCP servers… action: the page opens on first use, and its worker ends with the window."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.ui.tools.opener import McpServersOpener
from tests.fakes.memory_keyring import MemoryKeyring


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
