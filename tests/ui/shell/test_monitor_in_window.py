"""The Monitor panel in the window, and a model unloaded on purpose that the next message loads again."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import GREEDY
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS, WindowOpener


@pytest.fixture
def window(open_main_window: WindowOpener) -> Iterator[MainWindow]:
    main = open_main_window()
    main.sampling = replace(GREEDY, max_tokens=4)
    yield main
    main.close()


def test_the_monitor_is_a_dock_in_the_view_menu(window: MainWindow) -> None:
    assert "Monitor" in [action.text() for action in window.view_menu.actions()]
    assert window.monitor_panel.parent() is not None


def test_an_unloaded_model_is_loaded_again_by_the_next_message(window: MainWindow, qtbot: QtBot) -> None:
    model = window.loaded_model
    window.unload_model()
    qtbot.waitUntil(lambda: not window.worker.backend.is_loaded)
    assert window.loaded_model is None and "unloaded" in window.status_label.text()
    with qtbot.waitSignal(window.replyFinished, timeout=WINDOW_LOAD_TIMEOUT_MS):
        window.send("Say hello.")
    assert window.loaded_model == model
    assert [m.role for m in window.chat_view.messages()] == ["user", "assistant"]
