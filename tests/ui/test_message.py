"""The message bridge: one call logs a message and shows it on the window's banner, from any thread."""

from __future__ import annotations

import logging
import threading

import pytest
from PySide6.QtCore import QThread
from pytestqt.qtbot import QtBot

from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.ui import message
from app.ui.widgets.error_banner import ErrorBanner, NoticeAction


@pytest.fixture
def banner(qtbot: QtBot) -> ErrorBanner:
    shown = ErrorBanner()
    qtbot.addWidget(shown)
    shown.show()
    message.register(shown)
    return shown


@pytest.mark.expected_log("app.errors", logging.ERROR, "The disk is full")
@pytest.mark.expected_log("app.errors", logging.WARNING, "Only keyword search")
def test_each_level_is_logged_and_shown_with_its_severity(
    banner: ErrorBanner, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "app.errors")
    retried: list[bool] = []
    message.error("The disk is full", NoticeAction("Retry", lambda: retried.append(True)))
    message.warning("Only keyword search")
    message.info("The language changes at the next start.")
    assert [(n.text, n.severity) for n in banner.notices()] == [
        ("The language changes at the next start.", "info"),
        ("Only keyword search", "warning"),
        ("The disk is full", "error"),
    ]
    assert banner.notices()[2].action is not None
    assert [r.getMessage() for r in caplog.records if r.name == "app.errors"] == [
        "The disk is full",
        "Only keyword search",
        "The language changes at the next start.",
    ]
    message.clear()
    assert banner.notices() == []


@pytest.mark.expected_log("app.errors", logging.WARNING, "from a worker")
def test_a_message_from_another_thread_is_shown_by_the_gui_thread(banner: ErrorBanner, qtbot: QtBot) -> None:
    shown_by: list[QThread] = []
    show_notice = banner.show_notice

    def noting(text: str, level: int, action: NoticeAction | None = None) -> None:
        shown_by.append(QThread.currentThread())
        show_notice(text, level, action)

    banner.show_notice = noting  # type: ignore[method-assign]
    worker = threading.Thread(target=lambda: message.warning("from a worker"))
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: banner.notices() != [], timeout=5_000)
    assert shown_by == [QThread.currentThread()]


@pytest.mark.expected_log("app.errors", logging.ERROR, r"Loading tiny\.gguf was cancelled")
def test_a_core_text_reaches_the_banner_with_its_template(banner: ErrorBanner) -> None:
    text = fill(N_("Loading {name} was cancelled."), name="tiny.gguf")
    received: list[str] = []
    banner.show_notice = lambda shown, level, action=None: received.append(shown)  # type: ignore[method-assign]
    message.error(text)
    [shown] = received
    assert getattr(shown, "template", None) == "Loading {name} was cancelled."


@pytest.mark.expected_log("app.errors", logging.ERROR, "after the window closed")
def test_a_message_after_the_display_is_gone_is_only_logged(qtbot: QtBot, caplog: pytest.LogCaptureFixture) -> None:
    gone = ErrorBanner()
    message.register(gone)
    gone.deleteLater()
    qtbot.waitUntil(lambda: not _alive(gone), timeout=5_000)
    message.error("after the window closed")
    assert "after the window closed" in caplog.text


def _alive(widget: ErrorBanner) -> bool:
    import shiboken6

    return bool(shiboken6.isValid(widget))
