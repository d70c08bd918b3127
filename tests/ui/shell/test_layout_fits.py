"""The conversation comes first on any screen: the first start shows the chat with its settings panel, a layout
saved on a big screen gives the chat its room on a small one, and View → Reset layout brings the first back."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDockWidget
from pytestqt.qtbot import QtBot

from app.ui.shell.docks import FIRST_PANELS, MIN_CHAT_WIDTH
from app.ui.shell.main_window import MainWindow
from app.ui.shell.window_memory import WindowMemory
from tests.helpers.windows import WindowOpener


def open_panels(window: MainWindow) -> set[str]:
    return {d.objectName() for d in window.findChildren(QDockWidget) if not d.isHidden()}


def chat_width(window: MainWindow) -> int:
    QApplication.processEvents()
    return window.centralWidget().width()


def test_the_first_start_shows_the_chat_with_its_settings_and_the_glass_panels_a_click_away(
    open_main_window: WindowOpener,
) -> None:
    window = open_main_window()
    try:
        # the chat list, and Chat settings in front of its tabs where the screen has room (this one is 800 px)
        assert {"ChatsDock"} <= open_panels(window) <= FIRST_PANELS
        settings = window.chats.settings_dock
        assert settings.isHidden() or not settings.visibleRegion().isEmpty()
        assert not window.glass.prompt_dock.toggleViewAction().isChecked()
        assert chat_width(window) >= MIN_CHAT_WIDTH
    finally:
        window.close()


def test_a_layout_saved_on_a_big_screen_leaves_the_chat_its_room_on_a_small_one(
    open_main_window: WindowOpener,
) -> None:
    window = open_main_window()
    for dock in window.findChildren(QDockWidget):
        dock.show()  # every panel open, on a screen far wider than this one
    window.resize(2400, 1300)
    window.close()

    again = open_main_window()
    try:
        area = QGuiApplication.primaryScreen().availableGeometry()
        assert again.frameGeometry().width() <= area.width()
        assert chat_width(again) >= MIN_CHAT_WIDTH
        assert "ChatsDock" in open_panels(again)  # the glass box's panels gave way first
    finally:
        again.close()


def test_reset_layout_brings_back_the_first_start(open_main_window: WindowOpener, qtbot: QtBot) -> None:
    window = open_main_window()
    try:
        for dock in window.findChildren(QDockWidget):
            dock.show()
        window.chats.sidebar_dock.setFloating(True)
        assert "Reset layout" in [a.text().replace("&", "") for a in window.view_menu.actions()]
        window.reset_layout_action.trigger()
        assert {"ChatsDock", "ChatSettingsDock"} <= open_panels(window) <= FIRST_PANELS
        assert not window.chats.sidebar_dock.isFloating()
        assert chat_width(window) >= MIN_CHAT_WIDTH
    finally:
        window.close()


def test_panels_closed_to_give_the_chat_room_come_back_when_the_window_is_made_wider(
    open_main_window: WindowOpener, qtbot: QtBot
) -> None:
    window = open_main_window()
    try:
        for dock in window.findChildren(QDockWidget):
            dock.show()  # every panel open, as on a big screen
        closed = window.docks.give_chat_room(800)  # the window opened on a small screen
        assert closed and window.docks.closed_for_room == closed
        kept_closed = window.glass.prompt_dock
        if kept_closed.objectName() in closed:  # the user opens one, then closes it: that one is the user's now
            kept_closed.toggleViewAction().trigger()
            kept_closed.toggleViewAction().trigger()
            assert kept_closed.objectName() not in window.docks.closed_for_room
        window.resize(4000, window.height())  # the user makes the window wider
        qtbot.waitUntil(lambda: window.docks.closed_for_room == [], timeout=5_000)
        assert open_panels(window) >= set(closed) - {kept_closed.objectName()}
        assert kept_closed.isHidden()
        assert chat_width(window) >= MIN_CHAT_WIDTH
    finally:
        window.close()


def test_the_window_remembers_which_panels_it_closed_for_room_so_a_bigger_screen_opens_them_again() -> None:
    memory = WindowMemory(closed_for_room=("MonitorDock", "ChatsDock"))
    assert WindowMemory.from_json(memory.to_json()).closed_for_room == ("MonitorDock", "ChatsDock")
    assert WindowMemory.from_json('{"closed_for_room": [3, "LogsDock"]}').closed_for_room == ("LogsDock",)
