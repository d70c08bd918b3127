"""Keyboard shortcuts: standard keys, every menu item showing its keys and access letter, the shortcuts list."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QWidget
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import GREEDY
from app.ui.shell.main_window import MainWindow
from app.ui.shell.shortcuts import (
    ShortcutsDialog,
    give_access_keys,
    key_sequences,
    menu_actions,
    plain_text,
    typed_keys,
)

pytestmark = pytest.mark.window(greedy_tokens=8, active=True)


def test_each_menu_item_gets_a_letter_of_its_own(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    menu = QMenu(host)
    for text in ("Regenerate reply", "Rename", "E&xport…", "新建对话", "Quit"):
        menu.addAction(text)
    menu.addSeparator()
    give_access_keys(menu)
    assert [a.text() for a in menu.actions() if a.text()] == [
        "R&egenerate reply",  # the longer text chooses after the shorter ones: it has more letters to choose from
        "&Rename",
        "E&xport…",  # already had one
        "新建对话(&A)",  # no Latin letter: the Chinese way, a letter after the text
        "&Quit",
    ]
    give_access_keys(menu)  # again (a menu about to show): nothing changes
    assert menu.actions()[1].text() == "&Rename"


def test_a_short_word_gets_one_of_its_own_letters_not_one_added_after_it(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    menu = QMenu(host)
    for text in ("Load details", "Stats", "Prompt inspector", "Token probabilities", "Options", "Graph", "Logs"):
        menu.addAction(text)
    give_access_keys(menu)
    logs = next(a.text() for a in menu.actions() if plain_text(a) == "Logs")
    assert "(" not in logs and "&" in logs  # "L&ogs" or the like, never "Logs(&A)"


def test_a_standard_key_the_platform_lacks_falls_back_to_the_usual_one() -> None:
    assert key_sequences(QKeySequence.StandardKey.New, "Ctrl+N")[0] == QKeySequence("Ctrl+N")
    assert key_sequences(None, "Ctrl+PgDown") == [QKeySequence("Ctrl+PgDown")]
    assert key_sequences(QKeySequence.StandardKey.Quit, "Ctrl+Q")  # never without a key


def _press(qtbot: QtBot, window: MainWindow, keys: str) -> None:
    sequence = QKeySequence(keys)
    combination = sequence[0]
    focus = QGuiApplication.focusObject()
    target = focus if isinstance(focus, QWidget) and focus.window() is window else window
    qtbot.keyClick(target, combination.key(), combination.keyboardModifiers())


def test_the_menus_show_every_shortcut_and_the_shortcuts_list_is_read_from_them(
    window: MainWindow, qtbot: QtBot
) -> None:
    shortcuts = window.shortcuts
    menus = shortcuts.menus()
    keys = {plain_text(a): a.shortcut().toString() for _title, a in menu_actions(menus) if not a.shortcut().isEmpty()}
    assert keys["New chat"] == "Ctrl+N"  # shown in the menu now
    assert keys["Find in chats"] == "Ctrl+F"
    assert keys["Stop the reply"] == "Esc"
    assert keys["Regenerate reply"] == "Ctrl+R"
    assert keys["Copy the last reply"] == "Ctrl+Shift+C"
    assert keys["Focus the message box"] == "Ctrl+L"
    assert keys["Next chat"] == "Ctrl+PgDown" and keys["Previous chat"] == "Ctrl+PgUp"
    assert keys["Models…"] == "Ctrl+Shift+M"
    assert keys["Chats"] in {f"Alt+{digit}" for digit in range(10)}  # each panel shows and hides with a key
    assert {"Chat settings", "Quit", "Keyboard shortcuts"} <= keys.keys()
    panels = shortcuts.panel_actions()
    assert len(panels) >= 5 and all(not a.shortcut().isEmpty() for a in panels[:9])
    everything = [a for _title, a in menu_actions(menus)]
    letters_missing = [a.text() for a in everything if "&" not in a.text()]
    assert letters_missing == []
    dialog = ShortcutsDialog(menus, window)
    qtbot.addWidget(dialog)
    listed = {(action, keys) for _menu, action, keys in dialog.entries()}
    assert ("Stop the reply", "Esc") in listed
    assert len(dialog.entries()) == len([a for a in everything if typed_keys(a)])
    assert all("New" not in keys.split(" or ") for _menu, _action, keys in dialog.entries())


def test_the_shortcuts_list_names_keyboard_keys_only(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    new = QAction("New chat", host)
    new.setShortcuts([QKeySequence("Ctrl+N"), QKeySequence(Qt.Key.Key_New)])  # the platform's standard New
    stop = QAction("Stop", host)
    stop.setShortcuts([QKeySequence("Esc"), QKeySequence("Ctrl+.")])
    assert typed_keys(new) == ["Ctrl+N"]
    assert typed_keys(stop) == ["Esc", "Ctrl+."]


def test_a_panel_shown_with_its_key_comes_to_the_front_of_its_tabs(window: MainWindow, qtbot: QtBot) -> None:
    panels = {a.text().replace("&", ""): a for a in window.shortcuts.panel_actions()}
    monitor = window.monitor_panel.window().findChild(QDockWidget, "MonitorDock")
    assert monitor is not None and monitor.isHidden()
    toggle = monitor.toggleViewAction()
    assert toggle in panels.values()
    window.docks.show_first_panels()  # the panels of its column (the 800-px screen closed them at the start)
    toggle.trigger()  # what Alt+digit and View → Monitor do
    qtbot.waitUntil(lambda: not monitor.visibleRegion().isEmpty())  # in front of any panel it shares its place with


def test_new_chat_puts_the_focus_in_the_message_box(window: MainWindow, qtbot: QtBot) -> None:
    window.chats.sidebar.search.setFocus()
    qtbot.waitUntil(window.chats.sidebar.search.hasFocus)
    _press(qtbot, window, "Ctrl+N")
    qtbot.waitUntil(window.composer.hasFocus)
    qtbot.keyClicks(QGuiApplication.focusObject(), "typed right away")  # type: ignore[arg-type]
    assert window.composer.toPlainText() == "typed right away"


def test_find_focus_and_copy_the_last_reply_from_the_keyboard(window: MainWindow, qtbot: QtBot) -> None:
    _press(qtbot, window, "Ctrl+F")
    qtbot.waitUntil(window.chats.sidebar.search.hasFocus)
    _press(qtbot, window, "Ctrl+L")
    qtbot.waitUntil(window.composer.hasFocus)
    _press(qtbot, window, "Ctrl+Shift+C")
    assert "No reply" in window.statusBar().currentMessage()
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        window.send("Say hi.")
    _press(qtbot, window, "Ctrl+Shift+C")
    assert QGuiApplication.clipboard().text() == finished.args[0].text


def test_next_and_previous_chat_move_through_the_chat_list(window: MainWindow, qtbot: QtBot) -> None:
    sidebar = window.chats.sidebar
    for text in ("first chat", "second chat"):
        with qtbot.waitSignal(window.replyFinished, timeout=120_000):
            window.send(text)
        window.new_chat_action.trigger()
    qtbot.waitUntil(lambda: len(sidebar.chat_ids()) == 3)
    empty, newest, older = sidebar.chat_ids()  # the new empty chat on show is listed first, then the most recent
    assert empty == window.chats.session.chat.id
    for key, expected in (
        ("Ctrl+PgDown", newest),
        ("Ctrl+PgDown", older),
        ("Ctrl+PgDown", older),
        ("Ctrl+PgUp", newest),
    ):
        _press(qtbot, window, key)  # from the empty chat to the top of the list, then down, the end, and up
        qtbot.waitUntil(lambda expected=expected: window.chats.session.chat.id == expected)


def test_a_panel_hides_and_shows_with_its_key(window: MainWindow, qtbot: QtBot) -> None:
    dock = window.chats.sidebar_dock
    key = dock.toggleViewAction().shortcut().toString()
    assert dock.isVisible()
    _press(qtbot, window, key)
    qtbot.waitUntil(lambda: not dock.isVisible())
    _press(qtbot, window, key)
    qtbot.waitUntil(dock.isVisible)


def test_escape_stops_a_reply(window: MainWindow, qtbot: QtBot) -> None:
    window.chats.set_sampling(replace(GREEDY, max_tokens=400))
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        window.send("Write a long story about the sea.")
        qtbot.waitUntil(lambda: window.worker.generated_tokens > 2, timeout=60_000)
        _press(qtbot, window, "Esc")
    assert finished.args[0].stats.stop_reason.value == "stopped by user"


def test_the_settings_key_opens_the_chat_settings(window: MainWindow, qtbot: QtBot) -> None:
    window.chats.settings_dock.hide()
    window.shortcuts.settings_action.trigger()
    qtbot.waitUntil(window.chats.settings_dock.isVisible)
    focused = QGuiApplication.focusObject()
    assert isinstance(focused, QWidget) and window.chats.settings_panel.isAncestorOf(focused)
