"""Documents and long memory in the window: a reply gets the right excerpt, cites it, and a dropped turn comes back."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import PlanResult
from app.core.documents.index import DocumentIndex
from app.core.documents.retrieval import DOCUMENTS_HEADER, MEMORY_HEADER
from app.core.documents.vectors import Matrix
from app.core.paths import app_paths
from app.core.settings import Settings
from app.core.types.stats import StopReason
from app.ui.chat.citations import CitationsBar
from app.ui.shell.main_window import MainWindow

REPLY_TIMEOUT_MS = 120_000


def reply_prompts(window: MainWindow) -> list[str]:
    """The newest message of every reply's prompt, as the model got it (excerpts in front of it)."""
    prompts: list[str] = []

    def keep(result: PlanResult) -> None:
        if result.request.purpose == "reply" and result.plan is not None:
            prompts.append(result.plan.messages[-1].content)

    window.chats.replies.turns.planned.connect(keep)
    return prompts


def send(window: MainWindow, qtbot: QtBot, text: str) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=REPLY_TIMEOUT_MS):
        window.send(text)


pytestmark = pytest.mark.window(greedy_tokens=8)


def test_a_chat_with_a_collection_gets_the_right_excerpt_and_its_reply_lists_the_source(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "lighthouse.md").write_text(
        "# Lighthouse log\n\nThe keeper, Amelia Quint, climbs 132 steps to the lamp every evening.\n"
    )
    (notes / "bread.txt").write_text("Bread needs flour, water, salt and yeast; knead it for ten minutes.\n")
    panel = window.documents_panel
    with qtbot.waitSignal(panel.indexingDone, timeout=REPLY_TIMEOUT_MS):
        panel.add_paths([notes])
    prompts = reply_prompts(window)

    send(window, qtbot, "How many steps does the lighthouse keeper climb?")

    assert len(prompts) == 1
    prompt = prompts[0]
    assert prompt.startswith(DOCUMENTS_HEADER)
    assert "[1] lighthouse.md" in prompt and "132 steps" in prompt
    assert "yeast" not in prompt
    assert prompt.endswith("How many steps does the lighthouse keeper climb?")
    reply = window.chat_view.messages()[-1]
    bar = reply.findChild(CitationsBar)
    assert bar is not None
    assert [b.text() for b in bar.buttons] == ["[1] lighthouse.md, lines 1–3"]
    assert str(notes / "lighthouse.md") in bar.buttons[0].toolTip() and "line 1" in bar.buttons[0].toolTip()
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    bar.buttons[0].click()
    assert opened == [QUrl.fromLocalFile(str(notes / "lighthouse.md"))]
    retrieved = window.glass.prompt_panel.retrieved_view
    assert retrieved.topLevelItemCount() == 1
    item = retrieved.topLevelItem(0)
    assert item is not None and (item.text(0), item.text(2)) == ("[1]", "keyword")

    chat_id = window.chats.session.chat.id  # the sources are kept with the reply: reopened, it lists them again
    window.new_chat()
    with qtbot.waitSignal(window.chats.session.chatOpened, timeout=REPLY_TIMEOUT_MS):
        window.chats.open_chat(chat_id)
    reopened = window.chat_view.messages()[-1].findChild(CitationsBar)
    assert reopened is not None and [b.text() for b in reopened.buttons] == ["[1] lighthouse.md, lines 1–3"]


@pytest.fixture
def small_context() -> None:
    """A 512-token context, so a few long messages push the first ones out of the window."""
    settings = app_paths().settings_file
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(Settings().with_model({"n_ctx": 512}).to_dict()))


def test_long_memory_brings_a_turn_the_window_dropped_back_into_the_prompt_marked_recalled(
    small_context: None, window: MainWindow, qtbot: QtBot
) -> None:
    assert window.settings_store.settings.model.n_ctx == 512
    window.chats.settings_panel.prompt.long_memory_box.click()
    with DocumentIndex(app_paths().chats_db) as documents:
        qtbot.waitUntil(lambda: documents.long_memory(window.chats.session.chat.id), timeout=REPLY_TIMEOUT_MS)
    send(window, qtbot, "Please remember: my cat is called Zanzibar and she sleeps on the piano.")
    send(window, qtbot, "The weather report mentions clouds, rain and wind over the northern hills. " * 20)
    send(window, qtbot, "Trains leave the station at noon and return to the depot at dusk. " * 20)
    first = window.chat_view.messages()[0]
    assert first.outside_window  # the first turn left the window
    prompts = reply_prompts(window)

    send(window, qtbot, "What is my cat called?")

    prompt = prompts[-1]
    assert MEMORY_HEADER in prompt and "Zanzibar" in prompt
    assert prompt.endswith("What is my cat called?")
    badge = first.findChild(QLabel, "RecalledBadge")
    assert badge is not None and "recalled" in badge.text()
    memories = window.chats.session.shown_thread[-1].stats["retrieval"]["memories"]
    assert window.chats.session.shown_thread[0].id in [m["uri"] for m in memories]


def test_without_collections_or_long_memory_the_prompt_is_the_message_alone(window: MainWindow, qtbot: QtBot) -> None:
    prompts = reply_prompts(window)
    send(window, qtbot, "Say hello.")
    assert prompts == ["Say hello."]
    reply = window.chat_view.messages()[-1]
    assert reply.findChild(CitationsBar) is None
    assert "retrieval" not in window.chats.session.shown_thread[-1].stats


class SlowQuestionEmbedder:
    """Holds the question's embedding until `release` is set: retrieval is still running meanwhile."""

    model_key = "slow|2"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def embed(self, texts: Sequence[str], cancel: threading.Event | None = None) -> Matrix:
        self.entered.set()
        self.release.wait(REPLY_TIMEOUT_MS / 1000)
        return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)


def test_stop_while_the_excerpts_are_searched_ends_the_reply_before_it_begins(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "notes.txt").write_text("The lamp is lit at dusk.\n")
    with qtbot.waitSignal(window.documents_panel.indexingDone, timeout=REPLY_TIMEOUT_MS):
        window.documents_panel.add_paths([tmp_path / "notes.txt"])
    slow = SlowQuestionEmbedder()
    monkeypatch.setattr(window.embedder, "current", lambda: slow)
    prompts = reply_prompts(window)
    with qtbot.waitSignal(window.replyFinished, timeout=REPLY_TIMEOUT_MS) as finished:
        window.send("When is the lamp lit?")
        qtbot.waitUntil(slow.entered.is_set, timeout=REPLY_TIMEOUT_MS)
        window.stop_reply()
        slow.release.set()
    assert finished.args[0].stats.stop_reason is StopReason.USER
    assert prompts == []  # nothing was planned, nothing generated
    assert not window.state.is_streaming
    assert [m.role for m in window.chats.session.shown_thread] == ["user"]  # as a reply stopped at once
