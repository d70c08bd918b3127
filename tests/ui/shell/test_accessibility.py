"""The window from the keyboard and through a screen reader: names, focus rings, tab order, announcements."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import GREEDY
from app.core.settings import Theme
from app.ui.chat.long_message import WholeTextWindow
from app.ui.chat.sidebar import CHAT_ID
from app.ui.shell.about_dialog import AboutDialog
from app.ui.shell.main_window import MainWindow
from app.ui.shell.shortcuts import ShortcutsDialog
from app.ui.widgets.theme import apply_theme
from tests.helpers.accessibility import accessible_name, unnamed_widgets
from tests.helpers.windows import WindowOpener


@pytest.fixture
def window(open_main_window: WindowOpener, qapp: QApplication) -> Iterator[MainWindow]:
    apply_theme(qapp, Theme.LIGHT)  # as the application does before the window opens
    window = open_main_window(greedy_tokens=8, active=True)
    window.docks.show_first_panels()  # the offscreen screen (800 px) is too small for them at the start
    window.docks.arrange()
    qapp.processEvents()  # the docks' tab bars come with the layout
    yield window
    qapp.setStyleSheet("")


def test_the_walk_finds_a_widget_without_a_name(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    QPushButton(host)  # an icon-only button nobody named
    QPushButton("Send", host)
    assert unnamed_widgets(host) == ["QPushButton '' in QWidget"]


def test_every_interactive_widget_of_the_window_and_its_dialogs_has_a_name(window: MainWindow, qtbot: QtBot) -> None:
    window.models.open_models()
    window.server_models.open_dialog()
    dialogs = [
        window.models.manager,
        window.server_models.dialog,
        AboutDialog(window),
        ShortcutsDialog(window.shortcuts.menus(), window),
        WholeTextWindow("a long message", window),
    ]
    for dialog in dialogs:
        assert dialog is not None
        qtbot.addWidget(dialog)
    unnamed = {type(root).__name__: unnamed_widgets(root) for root in [window, *dialogs]}  # type: ignore[list-item]
    assert unnamed == {type(root).__name__: [] for root in [window, *dialogs]}  # type: ignore[list-item]
    assert accessible_name(window.composer) == "Message"
    assert accessible_name(window.gpu_panel.slider) == "GPU layers"


def _tab_stops(window: MainWindow, qtbot: QtBot, start: QWidget, key: Qt.Key, count: int) -> list[QWidget]:
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus)
    stops = []
    for _ in range(count):
        focused = QApplication.focusWidget()
        assert focused is not None
        qtbot.keyClick(focused, key)
        stops.append(QApplication.focusWidget())
    return [s for s in stops if s is not None]


def test_tab_goes_toolbar_chat_list_chat_message_box_send(window: MainWindow, qtbot: QtBot) -> None:
    sidebar = window.chats.sidebar
    expected = [sidebar.search, sidebar.list, window.chat_view, window.composer, window.send_button]
    stops = _tab_stops(window, qtbot, window.model_picker, Qt.Key.Key_Tab, 6)
    assert [s for s in stops if s in expected] == expected
    assert stops.index(window.send_button) <= 6  # no detours in between
    back = _tab_stops(window, qtbot, window.composer, Qt.Key.Key_Backtab, 2)
    assert back == [window.chat_view, sidebar.list]  # the chat list is two steps back from the message box


def _tab_stop(widget: QWidget) -> bool:
    return widget.isVisible() and widget.isEnabled() and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def test_every_tab_stop_shows_that_it_has_the_focus(window: MainWindow, qtbot: QtBot) -> None:
    """Each widget the Tab key reaches looks different once it has the focus: a ring, a highlight, a frame."""
    unmarked = []
    window.model_picker.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(window.model_picker.hasFocus)
    seen: set[int] = set()
    while True:
        current = QApplication.focusWidget()
        assert current is not None
        following = current.nextInFocusChain()
        while not _tab_stop(following):
            following = following.nextInFocusChain()
        if id(following) in seen:
            break
        before = following.grab().toImage()
        qtbot.keyClick(current, Qt.Key.Key_Tab)
        reached = QApplication.focusWidget()
        assert reached is not None
        seen.add(id(reached))
        if reached is following and reached.grab().toImage() == before:
            unmarked.append(f"{type(reached).__name__} {accessible_name(reached)!r}")
    assert len(seen) > 15
    assert unmarked == []


def test_enter_in_the_chat_list_opens_the_chat_and_arrows_move(window: MainWindow, qtbot: QtBot) -> None:
    for text in ("first chat", "second chat"):
        with qtbot.waitSignal(window.replyFinished, timeout=120_000):
            window.send(text)
        window.new_chat_action.trigger()
    sidebar = window.chats.sidebar
    chats = sidebar.list
    qtbot.waitUntil(lambda: len(sidebar.chat_ids()) == 3)  # the new empty chat, then the two with messages
    _empty, newest, older = sidebar.chat_ids()
    chats.setFocus(Qt.FocusReason.TabFocusReason)
    chats.setCurrentItem(chats.findItems("second chat", Qt.MatchFlag.MatchExactly)[0])
    qtbot.keyClick(chats, Qt.Key.Key_Down)  # over the date group's header
    assert chats.currentItem().data(CHAT_ID) == older
    opened = window.chats.session.chat.id
    qtbot.keyClick(chats, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.chats.session.chat.id == older != opened)
    assert newest != older


def test_a_finished_reply_is_announced_once_not_token_by_token(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[QAccessibleEvent] = []
    update = QAccessible.updateAccessibility
    monkeypatch.setattr(QAccessible, "updateAccessibility", lambda event: (events.append(event), update(event)))
    window.chats.set_sampling(replace(GREEDY, max_tokens=24))
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        window.send("Say hello.")
    announcements = [e for e in events if e.type() == QAccessible.Event.Announcement]
    assert len(announcements) == 1
    assert window.chat_view.accessibleDescription().startswith("Reply finished: ")
    assert finished.args[0].text.strip()[:20] in window.chat_view.accessibleDescription()
    assert QGuiApplication.focusObject() is not None
