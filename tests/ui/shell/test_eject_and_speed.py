"""The toolbar's Eject frees the model; the status bar's speed belongs to the chat on show."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.ui.shell.main_window import MainWindow

pytestmark = pytest.mark.window(greedy_tokens=4)


def test_eject_unloads_the_model_and_the_next_message_loads_it_again(window: MainWindow, qtbot: QtBot) -> None:
    assert window.eject_action.isEnabled()
    loaded = window.state.loaded_model
    window.eject_action.trigger()
    qtbot.waitUntil(lambda: window.state.loaded_model is None, timeout=10_000)
    assert not window.eject_action.isEnabled()
    with qtbot.waitSignal(window.replyFinished, timeout=120_000):
        window.send("Hello again.")
    assert window.state.loaded_model == loaded and window.eject_action.isEnabled()


def test_the_status_bar_speed_is_the_chat_on_shows(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        window.send("Say hi.")
    assert "tok/s" in window.speed_label.text()
    window.new_chat()
    assert window.speed_label.text() == ""
