"""The chat window as a user meets it: type, Enter, watch the reply stream, stop, close."""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.inference.sampling import GREEDY
from app.core.support.formatting import format_bytes
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason
from app.ui.shell.main_window import MainWindow

LONG_PROMPT = "Write a very long story about a lighthouse keeper, at least ten paragraphs."


pytestmark = pytest.mark.window(greedy_tokens=24)


def test_the_window_opens_with_the_starter_model_selected_and_loaded(window: MainWindow) -> None:
    assert window.state.loaded_model is not None
    assert window.state.loaded_model.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "(starter)" in window.model_picker.currentText()
    assert window.send_button.isEnabled()


def test_the_model_picker_gives_a_model_size_as_the_models_window_does(window: MainWindow) -> None:
    assert window.state.loaded_model is not None
    size = format_bytes(window.state.loaded_model.stat().st_size)
    assert window.model_picker.currentText().endswith(f"— {size}")


def test_a_window_opened_with_greedy_tokens_replies_so_in_a_new_chat_too(window: MainWindow) -> None:
    # the tests' window factory sets the sampling defaults, not one chat's settings
    greedy = replace(GREEDY, max_tokens=24)
    assert window.chats.session.effective().sampling == greedy
    window.new_chat()
    assert window.chats.session.effective().sampling == greedy


def test_enter_sends_and_the_reply_streams_into_the_chat(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.keyClicks(window.composer, "Say hello to me.")
    streamed: list[str] = []
    window.worker.token.connect(streamed.append)
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        qtbot.keyClick(window.composer, Qt.Key.Key_Return)
        assert window.state.is_streaming
    done: ReplyDone = finished.args[0]
    roles = [m.role for m in window.chat_view.messages()]
    assert roles == ["user", "assistant"]
    assert window.chat_view.messages()[1].text == done.text == "".join(streamed)
    assert window.composer.toPlainText() == ""
    assert "tok/s" in window.speed_label.text()
    assert "tokens" in window.chat_view.messages()[1].footer.text()


def test_shift_enter_starts_a_new_line_instead_of_sending(window: MainWindow, qtbot: QtBot) -> None:
    qtbot.keyClicks(window.composer, "first line")
    qtbot.keyClick(window.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(window.composer, "second line")
    assert window.composer.toPlainText() == "first line\nsecond line"
    assert not window.state.is_streaming and window.chat_view.messages() == []


def test_sending_is_disabled_while_a_reply_streams(window: MainWindow, qtbot: QtBot) -> None:
    window.chats.set_sampling(replace(GREEDY, max_tokens=64))
    with qtbot.waitSignal(window.replyFinished, timeout=120_000):
        window.send("Tell me about the moon.")
        assert not window.send_button.isEnabled() and window.stop_button.isEnabled()
        qtbot.keyClicks(window.composer, "a second question")
        qtbot.keyClick(window.composer, Qt.Key.Key_Return)
        assert window.composer.toPlainText() == "a second question"  # kept, not sent, not lost
    assert [m.role for m in window.chat_view.messages()] == ["user", "assistant"]
    assert window.send_button.isEnabled()


@pytest.mark.parametrize("how", ["button", "escape"])
def test_stop_ends_the_reply_and_keeps_what_was_written(window: MainWindow, qtbot: QtBot, how: str) -> None:
    window.chats.set_sampling(replace(GREEDY, max_tokens=2000))
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        window.send(LONG_PROMPT)
        qtbot.waitUntil(lambda: window.chat_view.live_text() != "", timeout=120_000)
        if how == "button":
            qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)
        else:
            qtbot.keyClick(window, Qt.Key.Key_Escape)
    done: ReplyDone = finished.args[0]
    assert done.stats.stop_reason is StopReason.USER
    assert done.text and window.chat_view.messages()[-1].text == done.text
    assert "stopped by user" in window.chat_view.messages()[-1].footer.text()


def test_closing_the_window_mid_reply_stops_joins_and_frees_the_model(window: MainWindow, qtbot: QtBot) -> None:
    window.chats.set_sampling(replace(GREEDY, max_tokens=2000))
    window.send(LONG_PROMPT)
    qtbot.waitUntil(lambda: window.chat_view.live_text() != "", timeout=120_000)
    window.close()
    assert not window.llm.thread.is_running()  # closing waits for the thread, however long it takes
    assert not window.worker.backend.is_loaded
    assert not window.worker.backend.link.running  # the engine process has ended: its memory is free


def test_new_chat_empties_the_conversation(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=120_000):
        window.send("Hi!")
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert window.chats.session.conversation() == []
    qtbot.waitUntil(lambda: window.chat_view.messages() == [])


def test_without_any_model_the_window_says_how_to_get_one(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.ui.shell.model_choice.installed_models", lambda _folder: [])
    main = MainWindow()
    qtbot.addWidget(main)
    main.show()
    try:
        assert main.chat_area.pages.currentWidget() is main.chat_area.empty_state
        assert "No model installed" in main.chat_area.empty_state.text()
        assert "Models" in main.chat_area.empty_state.text()
        assert not main.send_button.isEnabled()
    finally:
        main.close()


@pytest.mark.expected_log(
    "app.ui.llm.worker", logging.WARNING, r"Model load failed: Cannot use model file .*broken\.gguf"
)
@pytest.mark.expected_log("app.errors", logging.ERROR, r"broken\.gguf: this is not a GGUF file")
def test_a_model_that_fails_to_load_shows_the_reason(window: MainWindow, qtbot: QtBot, tmp_path: object) -> None:
    from pathlib import Path

    bad = Path(str(tmp_path)) / "broken.gguf"
    bad.write_text("<html>not a model</html>" * 4)
    window.load_model(bad)
    qtbot.waitUntil(lambda: window.error_banner.message() != "", timeout=10_000)
    assert "broken.gguf" in window.error_banner.message()
    assert "not a GGUF file" in window.error_banner.message()
    assert window.state.loaded_model is None and not window.send_button.isEnabled()


@pytest.mark.parametrize("frozen", [False, True])
def test_the_empty_state_offers_pip_only_where_pip_can_install_the_starter_model(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, frozen: bool
) -> None:
    monkeypatch.setattr("app.ui.shell.model_choice.installed_models", lambda _folder: [])
    monkeypatch.setattr(sys, "frozen", frozen, raising=False)
    main = MainWindow()
    qtbot.addWidget(main)
    try:
        text = main.chat_area.empty_state.text()
        assert "Tools → Models…" in text
        assert ("pip install" in text) is not frozen
    finally:
        main.close()


def test_stop_while_the_context_window_is_planned_ends_the_reply_before_any_token(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Stop that comes between Enter and the first token belongs to this reply: nothing is generated after it."""
    planning, release = threading.Event(), threading.Event()
    plan = window.worker.backend.plan

    def slow_plan(request: PlanRequest) -> PlanResult:
        if request.purpose == "reply":
            planning.set()
            release.wait(120)
        return plan(request)

    monkeypatch.setattr(window.worker.backend, "plan", slow_plan)
    streamed: list[str] = []
    window.worker.token.connect(streamed.append)
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        window.send(LONG_PROMPT)
        qtbot.waitUntil(planning.is_set, timeout=120_000)
        window.stop_reply()
        release.set()
    done: ReplyDone = finished.args[0]
    assert done.stats.stop_reason is StopReason.USER
    assert streamed == [] and done.text == ""
    assert not window.state.is_streaming
    assert [m.role for m in window.chats.session.shown_thread] == ["user"]  # as a reply stopped at once
