"""Nothing is lost by one click: hover buttons never move what is under the pointer, and a delete offers Undo."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.core.state import AppState
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.messages import ChatMessage
from app.ui.chat.message_menu import MessageMenus
from app.ui.chat.undo_delete import UNDO_SECONDS, UndoDelete
from app.ui.chat.view import MessageWidget
from app.ui.shell.chat_area import ChatArea
from tests.helpers.vision import prepared_picture
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


def menus_over(parts: PartsWindow, texts: list[str]) -> MessageMenus:
    """A saved chat of `texts` (user and model in turn) on show, a model on duty and no reply on the way."""
    roles = ["user", "assistant"]
    parts.session.open_transcript("Colours", [ChatMessage(roles[i % 2], t) for i, t in enumerate(texts)])
    state = AppState()
    config = LoadConfig(Path("/models/small.gguf"))
    state.load_started(config)
    state.load_finished(LoadReport(config))
    return MessageMenus(state, parts.session, parts.chat_view, parts)


def shown(parts: PartsWindow) -> list[str]:
    return [m.text for m in parts.session.shown_thread]


def delete(qtbot: QtBot, parts: PartsWindow, menus: MessageMenus, index: int) -> None:
    """Delete the message at `index` as the hover button does, and wait for the chat shown again."""
    with qtbot.waitSignal(parts.session.chatOpened):
        menus.delete_message(parts.session.shown_thread[index].id)


def test_one_click_deletes_a_message_with_those_after_it_and_offers_undo_for_ten_seconds(
    qtbot: QtBot, parts: PartsWindow
) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue.", "Name a fruit.", "Pear."])
    delete(qtbot, parts, menus, 2)
    assert shown(parts) == ["Name a colour.", "Blue."]
    assert not menus.undo.isHidden()
    assert menus.undo.label.text() == "Message and the 1 message(s) after it deleted."
    assert menus.undo.timer.isActive() and menus.undo.timer.interval() == UNDO_SECONDS * 1000 == 10_000


def test_undo_brings_the_deleted_messages_back_as_they_were(qtbot: QtBot, parts: PartsWindow) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue.", "Name a fruit.", "Pear."])
    before = [(m.id, m.role, m.text) for m in parts.session.shown_thread]
    delete(qtbot, parts, menus, 2)
    with qtbot.waitSignal(parts.session.chatOpened):
        menus.undo.undo_button.click()
    assert [(m.id, m.role, m.text) for m in parts.session.shown_thread] == before
    assert menus.undo.isHidden() and menus.undo.pending is None


def test_a_delete_not_undone_within_its_time_is_final_and_undo_then_does_nothing(
    qtbot: QtBot, parts: PartsWindow
) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue."])
    delete(qtbot, parts, menus, 1)
    finished: list[str] = []
    menus.undo.finished.connect(finished.append)
    menus.undo.timer.timeout.emit()  # the ten seconds are over
    assert len(finished) == 1 and menus.undo.isHidden()
    undone: list[str] = []
    menus.undo.undone.connect(undone.append)
    menus.undo.undo()
    assert undone == []
    parts.session.open_chat(parts.session.chat.id)
    qtbot.waitSignal(parts.session.chatOpened).wait()
    assert shown(parts) == ["Name a colour."]


def test_deleting_a_version_says_its_other_versions_stay() -> None:
    undo = UndoDelete()
    assert undo.describe(0, versions=2) == "Version deleted; the other versions stay."
    assert undo.describe(2, versions=3) == "Version and the 2 message(s) after it deleted; the other versions stay."
    assert undo.describe(0, versions=1) == "Message deleted."


def test_a_second_delete_makes_the_first_final_and_offers_undo_for_itself(qtbot: QtBot, parts: PartsWindow) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue.", "Name a fruit.", "Pear."])
    finished: list[str] = []
    menus.undo.finished.connect(finished.append)
    pear = parts.session.shown_thread[3].id
    delete(qtbot, parts, menus, 3)
    fruit = parts.session.shown_thread[2].id
    delete(qtbot, parts, menus, 2)
    assert finished == [pear]
    assert menus.undo.pending == fruit


def test_opening_another_chat_makes_the_delete_final(qtbot: QtBot, parts: PartsWindow) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue."])
    delete(qtbot, parts, menus, 1)
    finished: list[str] = []
    menus.undo.finished.connect(finished.append)
    parts.session.new_chat()
    assert len(finished) == 1 and menus.undo.isHidden()


def test_a_deleted_messages_image_is_kept_for_undo_and_goes_when_the_delete_is_final(
    qtbot: QtBot, parts: PartsWindow
) -> None:
    picture = prepared_picture()
    menus = menus_over(parts, ["Look.", "Red."])
    parts.session.add_user_message("And this?", (picture,))
    delete(qtbot, parts, menus, 2)
    with qtbot.waitSignal(parts.session.chatOpened):
        menus.undo.undo()
    assert parts.session.shown_thread[2].images == (picture,)
    delete(qtbot, parts, menus, 2)
    assert picture.exists()
    menus.undo.finish()
    qtbot.waitUntil(lambda: not picture.exists())


def test_the_message_menu_offers_delete_and_it_offers_undo_too(qtbot: QtBot, parts: PartsWindow) -> None:
    menus = menus_over(parts, ["Name a colour.", "Blue."])
    action = next(a for a in menus.menu(parts.session.shown_thread[1].id).actions() if a.text() == "Delete")
    with qtbot.waitSignal(parts.session.chatOpened):
        action.trigger()
    assert shown(parts) == ["Name a colour."]
    assert menus.undo.label.text() == "Message deleted."


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
