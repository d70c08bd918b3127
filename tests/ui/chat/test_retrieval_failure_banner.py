"""A document search that fails is said on the error banner, by the GUI thread: never by the retrieval worker."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QThread
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import PlanRequest
from app.core.chat.store import new_message
from app.ui.chat.conversations import Conversations
from app.ui.llm.retrieval import RetrievalJob, RetrievalThread, SharedEmbedder
from app.ui.widgets.error_banner import NoticeAction
from tests.ui.window_parts import PartsWindow

CHAT = "chat-1"


class Window(PartsWindow):
    """The conversations as the main window builds them, with a retrieval thread of their own."""

    def __init__(self, index_path: Path) -> None:
        super().__init__()
        self.retrieval = RetrievalThread(index_path, SharedEmbedder())
        self.chats = Conversations(
            self.state_signals, self.worker, self.session, self.chat_view, self.composer,
            self.add_dock, self.menu, parent=self, retrieval=self.retrieval.worker,
        )  # fmt: skip

    def shut_down(self) -> None:
        self.retrieval.request_stop()
        assert self.retrieval.thread.wait()
        super().shut_down()


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[Window]:
    folder_in_the_way = tmp_path / "chats.db"  # the index cannot be opened: each search fails
    folder_in_the_way.mkdir()
    main = Window(folder_in_the_way)
    qtbot.addWidget(main)
    yield main
    main.shut_down()


def job(question: str) -> RetrievalJob:
    message = new_message(CHAT, "user", question, None)
    return RetrievalJob(CHAT, PlanRequest("reply", "", (message,), reserve=256), (message.id,), (), 4096)


@pytest.mark.expected_log("app.errors", logging.WARNING, r"chats\.db could not be opened")
def test_a_failed_document_search_is_shown_on_the_banner_by_the_gui_thread(
    window: Window, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown_by: list[QThread] = []
    show_notice = window.banner.show_notice

    def noting_the_thread(message: str, level: int, action: NoticeAction | None = None) -> None:
        shown_by.append(QThread.currentThread())
        show_notice(message, level, action)

    monkeypatch.setattr(window.banner, "show_notice", noting_the_thread)
    window.retrieval.worker.retrieveRequested.emit(job("What does the keeper do?"))
    qtbot.waitUntil(lambda: window.banner.notices() != [], timeout=10_000)
    assert shown_by == [QThread.currentThread()]
    [notice] = window.banner.notices()
    assert "chats.db" in notice.text and notice.level == logging.WARNING
