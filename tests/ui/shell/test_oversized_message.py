"""A message that cannot fit the context is never sent as it is: the user attaches it, cuts it, or keeps editing."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.core.documents.indexer import FileStatus
from app.core.inference.sampling import GREEDY
from app.core.settings import ModelSettings, Settings
from app.ui.shell.main_window import MainWindow
from app.ui.shell.oversized_message import MEASURE_ABOVE_CHARS, Choice, cut_to_fit

N_CTX = 1024
pytestmark = pytest.mark.window(
    settings=Settings(sampling=GREEDY.with_values({"max_tokens": 4}), model=ModelSettings(n_ctx=N_CTX))
)
HUGE = "The quick brown fox jumps over the lazy dog. " * 2_000  # some 20,000 tokens for a context of 1,024


def answer_with(window: MainWindow, monkeypatch: pytest.MonkeyPatch, choice: Choice) -> list[tuple[int, int]]:
    """The user's answer to the question, and what the question said (tokens, room)."""
    asked: list[tuple[int, int]] = []
    monkeypatch.setattr(window.oversized, "ask", lambda tokens, room: asked.append((tokens, room)) or choice)
    return asked


def press_send(window: MainWindow, text: str) -> None:
    window.composer.setPlainText(text)
    window.composer.submit()


def test_a_message_too_long_for_the_context_is_not_sent_and_keep_editing_leaves_it_in_the_box(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = answer_with(window, monkeypatch, Choice.KEEP_EDITING)
    press_send(window, HUGE)
    qtbot.waitUntil(lambda: bool(asked), timeout=60_000)
    tokens, room = asked[0]
    assert tokens > room and room < N_CTX
    assert window.chats.session.shown_thread == [] and not window.state.is_streaming
    assert window.composer.toPlainText() == HUGE


def test_cut_to_fit_leaves_in_the_box_the_beginning_that_fits(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = answer_with(window, monkeypatch, Choice.CUT)
    press_send(window, HUGE)
    qtbot.waitUntil(lambda: bool(asked), timeout=60_000)
    cut = window.composer.toPlainText()
    assert HUGE.startswith(cut) and 0 < len(cut) < len(HUGE)
    assert window.chats.session.shown_thread == []  # nothing sent yet: the user sees the cut first
    qtbot.waitUntil(lambda: window.chats.measured(cut) is not None, timeout=60_000)
    measured = window.chats.measured(cut)
    assert measured is not None and measured.plan is not None and measured.too_long is None


def test_attaching_saves_the_text_as_a_document_of_this_chat_and_empties_the_box(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer_with(window, monkeypatch, Choice.ATTACH)
    with (
        qtbot.waitSignal(window.documents_panel.indexingDone, timeout=60_000) as indexed,
        qtbot.waitSignal(window.oversized.attached, timeout=60_000) as attached,
    ):
        press_send(window, HUGE)
    assert attached.args[0].read_text(encoding="utf-8") == HUGE.strip()
    assert window.composer.toPlainText() == ""
    assert window.chats.session.shown_thread == []
    assert indexed.args[0].count(FileStatus.INDEXED) == 1


def test_a_short_message_is_sent_at_once_without_waiting_to_be_measured(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        press_send(window, "Name a colour.")
    assert not window.oversized.measuring


def test_a_cut_ends_at_a_word_and_keeps_a_margin_below_the_room() -> None:
    text = "word " * 10_000
    cut = cut_to_fit(text, tokens=10_000, room=1_000)
    assert cut.endswith("word") and len(cut) < len(text) * 1_000 / 10_000
    assert len(cut) > MEASURE_ABOVE_CHARS // 4
