"""Whole turns of a thinking model in the main window, against a scripted engine (no model): the
reasoning streams in its block, folds with its cost when the answer starts, is saved apart from
the answer as it streams and at the end (a Stop inside it too), and comes back folded."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from PySide6.QtCore import Slot
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.core.chat.store import MessageState
from app.core.paths import app_paths
from app.core.types.load import LoadConfig, LoadReport
from app.ui.chat.reasoning_block import ReasoningBlock
from app.ui.chat.view import MessageWidget
from app.ui.llm.worker import LlmThread
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WindowOpener
from tests.ui.turn.scripted_worker import ScriptedWorker
from tests.ui.turn.thinking_engine import REASONING_S, ThinkingEngine

END_MS = 20_000


class ThinkingModelWorker(ScriptedWorker):
    """Loads nothing: the window believes the thinking model it asked for is loaded."""

    @Slot(object)
    def _load(self, config: LoadConfig) -> None:
        self.loadStarted.emit(config)
        self.loaded.emit(LoadReport(config))


@pytest.fixture
def worker() -> ThinkingModelWorker:
    return ThinkingModelWorker(ThinkingEngine())


@pytest.fixture
def window(open_main_window: WindowOpener, worker: ThinkingModelWorker) -> MainWindow:
    return open_main_window(LlmThread(worker))


def saved(message_id: str) -> tuple[str, str, str]:
    """The message's answer, reasoning and state as the history file holds them (read beside the app)."""
    db = sqlite3.connect(f"file:{app_paths().chats_db}?mode=ro", uri=True)
    try:
        return db.execute("SELECT text, reasoning, state FROM messages WHERE id = ?", (message_id,)).fetchone()
    finally:
        db.close()


def block_of(message: MessageWidget) -> ReasoningBlock:
    assert message.reasoning is not None, "the reply has a reasoning block"
    return message.reasoning


def test_the_reasoning_streams_folds_with_its_cost_and_is_saved_apart_from_the_answer(
    window: MainWindow, worker: ThinkingModelWorker, qtbot: QtBot
) -> None:
    worker.hold("token")
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("Hi")
        qtbot.waitUntil(worker.entered.is_set, timeout=END_MS)
        qtbot.waitUntil(lambda: window.chat_view.live_reasoning() == "The user ", timeout=END_MS)
        live = window.chat_view.live_message
        assert live is not None
        assert block_of(live).expanded and block_of(live).summary() == "Thinking…"
        worker.release.set()
    reply = window.chats.session.shown_thread[-1]
    assert (reply.text, reply.reasoning, reply.state) == (
        "Hello there!",
        "The user greets me. A short **hello** will do.",
        MessageState.COMPLETE,
    )
    shown = window.chat_view.messages()[-1]
    block = block_of(shown)
    assert shown.text == "Hello there!"
    assert not block.expanded
    assert block.summary() == f"Thought for {REASONING_S} s · 3 tokens"
    footer = shown.footer.text()
    assert "5 tokens (3 thinking, 2 answering)" in footer
    assert f"thought {REASONING_S} s, answered in 1.0 s" in footer
    qtbot.waitUntil(lambda: saved(reply.id)[:2] == (reply.text, reply.reasoning), timeout=END_MS)


def test_the_replys_copy_copies_the_answer_and_the_blocks_copy_the_reasoning(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("Hi")
    shown = window.chat_view.messages()[-1]
    shown.action_bar.buttons["copy"].click()
    assert QGuiApplication.clipboard().text() == "Hello there!"
    block_of(shown).copy_button.click()
    assert QGuiApplication.clipboard().text() == "The user greets me. A short **hello** will do."


def test_a_stop_inside_the_reasoning_keeps_it_as_reasoning_and_shows_the_block_open(
    window: MainWindow, worker: ThinkingModelWorker, qtbot: QtBot
) -> None:
    worker.hold("token")
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("Hi")
        qtbot.waitUntil(worker.entered.is_set, timeout=END_MS)
        window.stop_reply()
        worker.release.set()
    reply = window.chats.session.shown_thread[-1]
    assert (reply.role, reply.text, reply.reasoning, reply.state) == (
        "assistant",
        "",
        "The user ",
        MessageState.STOPPED,
    ), "a reply stopped while thinking is kept, its reasoning as reasoning"
    shown = window.chat_view.messages()[-1]
    assert block_of(shown).expanded and block_of(shown).text() == "The user "
    qtbot.waitUntil(lambda: saved(reply.id) == ("", "The user ", "stopped"), timeout=END_MS)


def test_a_reopened_chat_shows_its_saved_reasoning_folded_with_its_cost(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("Hi")
    chat_id = window.chats.session.chat.id
    live_footer = window.chat_view.messages()[-1].footer.text()
    window.new_chat()
    window.chats.open_chat(chat_id)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=END_MS)
    shown = window.chat_view.messages()[-1]
    block = block_of(shown)
    assert not block.expanded and block.body.isHidden()
    assert block.text() == "The user greets me. A short **hello** will do."
    assert block.summary() == f"Thought for {REASONING_S} s · 3 tokens"
    assert shown.footer.text() == live_footer
    assert window.chat_view.messages()[0].reasoning is None, "your message has no reasoning"
    last = window.chats.session.conversation()[-1]
    assert (last.content, last.reasoning) == ("Hello there!", block.text()), "for a template that keeps it"


@pytest.mark.expected_log("app.core.turn.turn", logging.ERROR, "The turn failed in its")
@pytest.mark.expected_log("app.errors", logging.ERROR, "died mid-reasoning")
def test_a_reply_that_fails_inside_its_reasoning_keeps_it_as_reasoning(
    window: MainWindow, worker: ThinkingModelWorker, qtbot: QtBot
) -> None:
    worker.engine.fail_at = "token"
    window.send("Hi")
    qtbot.waitUntil(lambda: not window.state.is_streaming, timeout=END_MS)
    reply = window.chats.session.shown_thread[-1]
    assert (reply.text, reply.reasoning, reply.state) == ("", "The user ", MessageState.FAILED)
    assert block_of(window.chat_view.messages()[-1]).expanded
    qtbot.waitUntil(lambda: saved(reply.id) == ("", "The user ", "failed"), timeout=END_MS)


def test_the_chat_search_finds_words_of_the_reasoning_only_when_asked(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("Hi")
    chat_id = window.chats.session.chat.id
    sidebar = window.chats.sidebar
    qtbot.waitUntil(lambda: sidebar.chat_ids() == [chat_id], timeout=END_MS)
    sidebar.search.setText("greets me")
    qtbot.waitUntil(lambda: sidebar.chat_ids() == [], timeout=END_MS)
    sidebar.search_reasoning.setChecked(True)
    qtbot.waitUntil(lambda: sidebar.chat_ids() == [chat_id], timeout=END_MS)
