"""The window outlives its engine: llama.cpp dying mid-reply loses no text and no chat."""

from __future__ import annotations

import logging
import os
import signal
from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app.core.backends.local.process import EngineProcess
from app.core.inference.sampling import GREEDY
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS
from tests.ui.chat.test_chats_gui import rows

pytestmark = pytest.mark.window(greedy_tokens=400)


def engine_pid(window: MainWindow) -> int:
    link = window.worker.backend.link
    assert isinstance(link, EngineProcess) and link.pid is not None
    return link.pid


@pytest.mark.expected_log("app.core.backends.local.process", logging.ERROR, r"crashed \(SIGSEGV\) while writing")
@pytest.mark.expected_log("app.errors", logging.ERROR, "crashed \\(SIGSEGV\\)|no longer loaded")
def test_an_engine_crash_mid_reply_keeps_the_text_and_the_window_and_the_model_can_be_loaded_again(
    window: MainWindow, qtbot: QtBot
) -> None:
    pid = engine_pid(window)
    window.send("Write a very long story about a lighthouse keeper.")
    qtbot.waitUntil(lambda: len(window.chat_view.live_text()) > 20, timeout=60_000)
    with qtbot.waitSignal(window.replyFinished, timeout=30_000) as finished:
        os.kill(pid, signal.SIGSEGV)
    done: ReplyDone = finished.args[0]
    assert done.stats.stop_reason is StopReason.ERROR and len(done.text) > 20
    shown = window.chat_view.messages()[-1]
    assert shown.text == done.text  # what was on screen stays on screen
    qtbot.waitUntil(lambda: rows("SELECT text FROM messages WHERE role = 'assistant'") == [(done.text,)])
    qtbot.waitUntil(lambda: window.state.loaded_model is None)
    assert "crashed (SIGSEGV)" in window.error_banner.message()
    assert "no longer loaded" in window.error_banner.message()
    assert window.status_label.text() == "No model loaded: the engine stopped"
    assert not window.send_button.isEnabled()

    # Choosing the model again loads it in a fresh engine, and the chat goes on.
    window.model_picker.activated.emit(window.model_picker.currentIndex())
    qtbot.waitUntil(lambda: window.state.loaded_model is not None, timeout=WINDOW_LOAD_TIMEOUT_MS)
    assert engine_pid(window) != pid
    window.chats.set_sampling(replace(GREEDY, max_tokens=4))
    with qtbot.waitSignal(window.replyFinished, timeout=60_000) as again:
        window.send("Say hello.")
    assert again.args[0].stats.stop_reason is StopReason.LENGTH
