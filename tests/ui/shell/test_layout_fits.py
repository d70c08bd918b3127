"""The conversation comes first on any screen: the first start shows the chat with its settings panel, a layout
saved on a big screen gives the chat its room on a small one, and View → Reset layout brings the first back."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDockWidget
from pytestqt.qtbot import QtBot

from app.ui.shell.docks import FIRST_PANELS, MIN_CHAT_WIDTH
from app.ui.shell.main_window import MainWindow
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
