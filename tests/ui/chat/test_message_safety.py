"""Nothing is lost by one click: hover buttons never move what is under the pointer, and a delete always asks."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QTimer
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from app.core.chat.store import Message
from app.core.state import AppState
from app.core.types.load import LoadConfig, LoadReport
from app.ui.chat.message_menu import MessageMenus
from app.ui.chat.view import MessageWidget
from app.ui.shell.chat_area import ChatArea
from tests.ui.window_parts import PartsWindow


def where(widget: QWidget) -> tuple[QPoint, int, int]:
    top = widget.window()
    return widget.mapTo(top, QPoint(0, 0)), widget.width(), widget.height()


def reply_with_two_versions(qtbot: QtBot) -> MessageWidget:
    widget = MessageWidget("assistant", "m2")
    for name in ("copy", "regenerate", "delete"):
        widget.action_bar.add(name, name, name, lambda: None)
    widget.versions.show_position(1, 2, can_switch=True)
    widget.set_plain_text("Blue.")
    widget.resize(600, widget.sizeHint().height())
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_hover_buttons_appear_without_moving_the_version_arrows(qtbot: QtBot) -> None:
    widget = reply_with_two_versions(qtbot)
    arrow_before, height_before = where(widget.versions.previous), widget.height()
    assert not widget.action_bar.isVisible()
    centre = QPointF(widget.versions.previous.geometry().center())
    QApplication.sendEvent(widget, QEnterEvent(centre, centre, QPointF(widget.mapToGlobal(centre.toPoint()))))
    assert widget.action_bar.isVisible()
    QApplication.processEvents()
    assert where(widget.versions.previous) == arrow_before
    assert widget.height() == height_before


@pytest.fixture
def parts(qtbot: QtBot) -> Iterator[PartsWindow]:
    window = PartsWindow()
    qtbot.addWidget(window)
    yield window
    window.shut_down()


def menus_over(parts: PartsWindow, texts: list[str], versions: int = 1) -> MessageMenus:
    roles = ["user", "assistant"]
    parts.session.shown_thread = [
        Message(id=f"m{i}", chat_id="c", parent_id=None, role=roles[i % 2], text=t) for i, t in enumerate(texts)
    ]
    parts.session.versions = {"m1": (1, versions)} if versions > 1 else {}
    state = AppState()
    config = LoadConfig(Path("/models/small.gguf"))
    state.load_started(config)
    state.load_finished(LoadReport(config))  # a model on duty, no reply on the way
    return MessageMenus(state, parts.session, parts.chat_view, parts)


def answer_next_question(button: str, questions: list[str]) -> None:
    """When the next question comes up, note its text and press the button named `button`."""

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, answer)
            return
        questions.append(box.text())
        pressed = next(b for b in box.findChildren(QPushButton) if b.text().replace("&", "") == button)
        pressed.click()

    QTimer.singleShot(0, answer)


def test_deleting_the_last_message_asks_first_and_cancel_keeps_it(
    parts: PartsWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue."])
    deleted: list[str] = []
    monkeypatch.setattr(parts.session, "delete_message", deleted.append)
    questions: list[str] = []
    answer_next_question("Cancel", questions)
    menus.delete_message("m1")
    assert questions == ["Delete this message?"]
    assert deleted == []


def test_a_delete_agreed_to_deletes_and_says_that_other_versions_stay(
    parts: PartsWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue."], versions=2)
    deleted: list[str] = []
    monkeypatch.setattr(parts.session, "delete_message", deleted.append)
    questions: list[str] = []
    answer_next_question("Delete", questions)
    menus.delete_message("m1")
    assert questions == ["Delete this message? Its other versions stay."]
    assert deleted == ["m1"]


def test_the_question_counts_the_messages_that_go_with_it(parts: PartsWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue.", "Name a fruit.", "Pear."])
    monkeypatch.setattr(parts.session, "delete_message", lambda _id: None)
    questions: list[str] = []
    answer_next_question("Cancel", questions)
    menus.delete_message("m0")
    assert questions == ["Delete this message and the 3 message(s) after it?"]


def test_a_message_menu_offers_delete_and_it_asks_too(parts: PartsWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue."])
    deleted: list[str] = []
    monkeypatch.setattr(parts.session, "delete_message", deleted.append)
    delete = next(a for a in menus.menu("m1").actions() if a.text() == "Delete…")
    questions: list[str] = []
    answer_next_question("Cancel", questions)
    delete.trigger()
    assert questions and deleted == []


@pytest.mark.expected_log("app.errors", logging.ERROR, "could not be loaded")
def test_a_notice_that_appears_leaves_the_chat_where_it_was(qtbot: QtBot) -> None:
    area = ChatArea()
    area.resize(800, 600)
    qtbot.addWidget(area)
    area.show()
    qtbot.waitExposed(area)
    chat_before = where(area.chat_view)
    area.error_banner.show_error("The model could not be loaded.")
    QApplication.processEvents()
    assert area.error_banner.isVisible()
    assert where(area.chat_view) == chat_before
    banner = area.error_banner.geometry().translated(area.notices.pos())
    assert area.chat_view.geometry().translated(area.pages.pos()).intersects(banner)  # over the chat's top


@pytest.mark.expected_log("app.errors", logging.ERROR, "Gone soon")
def test_with_no_notice_shown_the_overlay_takes_no_room_over_the_chat(qtbot: QtBot) -> None:
    area = ChatArea()
    area.resize(800, 600)
    qtbot.addWidget(area)
    area.show()
    area.error_banner.show_error("Gone soon.")
    QApplication.processEvents()
    area.error_banner.hide()
    QApplication.processEvents()
    assert area.notices.height() == 0
