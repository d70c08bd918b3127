"""The banner: notices stack newest first, each keeps its severity and is dismissed on its own or all at once."""

from __future__ import annotations

import logging

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QPushButton, QToolButton
from pytestqt.qtbot import QtBot

from app.ui.widgets.error_banner import MAX_NOTICES, ErrorBanner, NoticeAction


@pytest.fixture
def banner(qtbot: QtBot) -> ErrorBanner:
    widget = ErrorBanner()
    qtbot.addWidget(widget)
    widget.show()  # as in the window, where its parent is on screen
    widget.hide()  # and it waits, empty, for its first notice
    return widget


def shown_rows(banner: ErrorBanner) -> list[QFrame]:
    rows = [row for row in banner.findChildren(QFrame, "Notice") if not row.isHidden()]
    return sorted(rows, key=lambda row: row.y())


@pytest.mark.expected_log("app.errors", logging.ERROR, "^The model could not be loaded")
@pytest.mark.expected_log("app.errors", logging.WARNING, "^The settings file could not be read")
def test_several_notices_stack_newest_first_each_with_its_severity(banner: ErrorBanner, qtbot: QtBot) -> None:
    banner.show_error("The model could not be loaded: not a GGUF file.")
    banner.show_error("The settings file could not be read; the defaults are in use.", logging.WARNING)
    banner.show_error("A newer version is available.", logging.INFO)
    assert banner.isVisible()
    assert [notice.severity for notice in banner.notices()] == ["info", "warning", "error"]
    assert banner.message().splitlines() == [
        "A newer version is available.",
        "The settings file could not be read; the defaults are in use.",
        "The model could not be loaded: not a GGUF file.",
    ]
    qtbot.waitUntil(lambda: len(shown_rows(banner)) == 3)
    assert [row.property("severity") for row in shown_rows(banner)] == ["info", "warning", "error"]
    assert banner.dismiss_all_button.isVisible()


@pytest.mark.expected_log("app.errors", logging.ERROR, "^(first|second|third)$")
def test_each_notice_is_dismissed_on_its_own_and_the_last_one_hides_the_banner(
    banner: ErrorBanner, qtbot: QtBot
) -> None:
    for text in ("first", "second", "third"):
        banner.show_error(text)
    qtbot.waitUntil(lambda: len(shown_rows(banner)) == 3)
    middle = shown_rows(banner)[1]
    qtbot.mouseClick(middle.findChild(QToolButton, "DismissNotice"), Qt.MouseButton.LeftButton)
    assert [notice.text for notice in banner.notices()] == ["third", "first"]
    assert banner.dismiss_all_button.isVisible()
    qtbot.waitUntil(lambda: len(shown_rows(banner)) == 2)
    qtbot.mouseClick(shown_rows(banner)[0].findChild(QToolButton, "DismissNotice"), Qt.MouseButton.LeftButton)
    assert [notice.text for notice in banner.notices()] == ["first"] and banner.isVisible()
    assert not banner.dismiss_all_button.isVisible()  # one notice needs no "dismiss all"
    qtbot.waitUntil(lambda: len(shown_rows(banner)) == 1)
    qtbot.mouseClick(shown_rows(banner)[0].findChild(QToolButton, "DismissNotice"), Qt.MouseButton.LeftButton)
    assert banner.notices() == [] and not banner.isVisible() and banner.message() == ""


@pytest.mark.expected_log("app.errors", logging.ERROR, "^(one|two)$")
def test_dismiss_all_clears_the_stack_and_hiding_the_banner_does_the_same(banner: ErrorBanner, qtbot: QtBot) -> None:
    banner.show_error("one")
    banner.show_error("two")
    qtbot.mouseClick(banner.dismiss_all_button, Qt.MouseButton.LeftButton)
    assert banner.notices() == [] and not banner.isVisible()
    banner.show_error("one")
    banner.hide()  # the window hides the banner when a new message is sent
    banner.show_error("two")
    assert [notice.text for notice in banner.notices()] == ["two"]


@pytest.mark.expected_log("app.errors", logging.ERROR, r"^notice \d+$")
def test_only_the_latest_notices_are_kept_and_a_repeated_one_moves_to_the_top(banner: ErrorBanner) -> None:
    for number in range(MAX_NOTICES + 3):
        banner.show_error(f"notice {number}")
    assert [notice.text for notice in banner.notices()] == [
        f"notice {number}" for number in reversed(range(3, MAX_NOTICES + 3))
    ]
    banner.show_error("notice 4")
    assert [notice.text for notice in banner.notices()][:2] == ["notice 4", f"notice {MAX_NOTICES + 2}"]
    assert len(banner.notices()) == MAX_NOTICES


@pytest.mark.expected_log("app.errors", logging.ERROR, "^The server stopped sending")
def test_a_notice_with_an_action_offers_its_button_which_runs_it_and_dismisses_the_notice(
    banner: ErrorBanner, qtbot: QtBot
) -> None:
    retried: list[bool] = []
    banner.show_error(
        "The server stopped sending; try again.", action=NoticeAction("Retry", lambda: retried.append(True))
    )
    qtbot.waitUntil(lambda: len(shown_rows(banner)) == 1)
    (button,) = shown_rows(banner)[0].findChildren(QPushButton, "NoticeAction")
    assert button.text() == "Retry"
    button.click()
    assert retried == [True]
    assert banner.notices() == [] and not banner.isVisible()
