"""Opening the main window in a test."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pytest
from pytestqt.qtbot import QtBot

if TYPE_CHECKING:
    from app.ui.llm.worker import LlmThread
    from app.ui.shell.main_window import MainWindow

WINDOW_LOAD_TIMEOUT_MS = 120_000  # a busy two-core machine can take a while


class WindowOpener(Protocol):
    def __call__(self, llm: LlmThread | None = None) -> MainWindow: ...


@pytest.fixture
def open_main_window(qtbot: QtBot, starter_model: Path) -> WindowOpener:
    """`open_main_window(llm=None)` shows a main window and waits until its model (the starter) has loaded."""

    def open_window(llm: LlmThread | None = None) -> MainWindow:
        from app.ui.shell.main_window import MainWindow  # Qt only for the tests that open a window

        main = MainWindow(llm=llm)
        qtbot.addWidget(main)
        main.show()
        qtbot.waitUntil(lambda: main.loaded_model is not None, timeout=WINDOW_LOAD_TIMEOUT_MS)
        return main

    return open_window
