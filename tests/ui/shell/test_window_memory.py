"""The window comes back as it was left: size, place, panels, their tabs, the last chat; and it fits the screen."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import GREEDY
from app.core.paths import app_paths
from app.ui.shell.main_window import WINDOW_FILE
from app.ui.shell.window_memory import WindowMemory, load_memory
from tests.helpers.windows import WindowOpener


def test_size_panels_the_raised_tab_the_last_chat_and_the_model_on_duty_are_remembered_at_close(
    open_main_window: WindowOpener, qtbot: QtBot
) -> None:
    window = open_main_window()
    window.chats.set_sampling(replace(GREEDY, max_tokens=3))
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        window.send("Name a colour.")
    chat_id = window.chats.session.chat.id
    window.resize(760, 560)
    monitor = window.findChild(type(window.chats.settings_dock), "LoadDetailsDock")
    assert monitor is not None and monitor.isHidden()
    window.chats.settings_dock.hide()  # Load details in the place of the settings, so the chat keeps its room
    window.findChild(type(monitor), "GpuOffloadDock").hide()
    monitor.show()
    on_duty = window.state.loaded_model
    window.close()
    memory = load_memory(app_paths().config / WINDOW_FILE)
    assert memory.last_chat == chat_id
    assert on_duty is not None and memory.last_model == str(on_duty)

    again = open_main_window()
    try:
        area = QGuiApplication.primaryScreen().availableGeometry()
        assert again.height() == 560  # the width: at least as set, wider if the panels open need it, within the screen
        assert again.width() >= 760 and again.frameGeometry().width() <= area.width()
        reopened = again.findChild(type(again.chats.settings_dock), "LoadDetailsDock")
        assert reopened is not None and not reopened.isHidden()
        assert again.chats.settings_dock.isHidden()
        qtbot.waitUntil(lambda: again.chats.session.chat.id == chat_id, timeout=10_000)
        qtbot.waitUntil(lambda: len(again.chat_view.messages()) == 2, timeout=10_000)
    finally:
        again.close()


def test_the_first_start_fits_the_screen_it_opens_on(open_main_window: WindowOpener) -> None:
    window = open_main_window()
    try:
        area = QGuiApplication.primaryScreen().availableGeometry()
        assert window.frameGeometry().width() <= area.width() and window.frameGeometry().height() <= area.height()
        assert area.contains(window.frameGeometry().topLeft())
    finally:
        window.close()


@pytest.mark.expected_log("app.ui.shell.window_memory", logging.WARNING, r"could not be read")
def test_a_damaged_layout_file_is_ignored_and_replaced_at_close(open_main_window: WindowOpener) -> None:
    path = app_paths().ensure().config / WINDOW_FILE
    path.write_text("{not json", encoding="utf-8")
    window = open_main_window()
    window.close()
    assert load_memory(path).geometry  # a good one in its place


def test_the_layout_file_round_trips() -> None:
    memory = WindowMemory(b"\x01geometry", b"\x00state", ("GlassBoxDock",), "chat-1", "/models/a.gguf")
    assert WindowMemory.from_json(memory.to_json()) == memory
