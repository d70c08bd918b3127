"""Whole turns in the main window against a scripted engine (no model): what the chat keeps of each end.

Stop at each step, a failure, a refused turn, regenerate and edit-and-continue all run
through the same turn; what crosses into the engine is the slim record of each message.
"""

from __future__ import annotations

import logging
import pickle

import pytest
from PySide6.QtCore import Slot
from pytestqt.qtbot import QtBot

from app.core.chat.store import Message, MessageState
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.stats import StopReason
from app.ui.llm.worker import LlmThread
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WindowOpener
from tests.ui.turn.scripted_worker import ScriptedWorker

END_MS = 20_000


class ScriptedModelWorker(ScriptedWorker):
    """Loads nothing: the window believes the model it asked for is loaded."""

    @Slot(object)
    def _load(self, config: LoadConfig) -> None:
        self.loadStarted.emit(config)
        self.loaded.emit(LoadReport(config))


@pytest.fixture
def worker() -> ScriptedModelWorker:
    return ScriptedModelWorker()


@pytest.fixture
def window(open_main_window: WindowOpener, worker: ScriptedModelWorker) -> MainWindow:
    return open_main_window(LlmThread(worker))


def send(window: MainWindow, qtbot: QtBot, text: str) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send(text)


def test_a_reply_is_written_saved_and_shown(window: MainWindow, qtbot: QtBot) -> None:
    send(window, qtbot, "Hi")
    thread = window.chats.session.shown_thread
    assert [(m.role, m.text, m.state) for m in thread] == [
        ("user", "Hi", MessageState.COMPLETE),
        ("assistant", "Hello there!", MessageState.COMPLETE),
    ]
    assert window.chat_view.messages()[-1].text == "Hello there!"


@pytest.mark.parametrize("step", ["plan", "generate"])
def test_a_stop_before_the_first_token_leaves_only_the_users_message(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot, step: str
) -> None:
    worker.hold(step)
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS) as finished:
        window.send("Hi")
        qtbot.waitUntil(worker.entered.is_set, timeout=END_MS)
        window.stop_reply()
        worker.release.set()
    assert finished.args[0].stats.stop_reason is StopReason.USER
    assert worker.engine.generated == []
    assert [m.role for m in window.chats.session.shown_thread] == ["user"]
    assert not window.state.is_streaming


def test_a_stop_mid_reply_saves_what_was_written_as_stopped(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot
) -> None:
    worker.hold("token")
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.send("Hi")
        qtbot.waitUntil(worker.entered.is_set, timeout=END_MS)
        window.stop_reply()
        worker.release.set()
    assert worker.engine.generated == ["Hel"]
    reply = window.chats.session.shown_thread[-1]
    assert (reply.role, reply.text, reply.state) == ("assistant", "Hel", MessageState.STOPPED)
    assert window.chat_view.messages()[-1].text == "Hel"


@pytest.mark.expected_log("app.core.turn.turn", logging.ERROR, "The turn failed in its")
@pytest.mark.expected_log("app.errors", logging.ERROR, "died mid-reply")
def test_a_reply_that_fails_mid_way_keeps_its_text_as_failed_and_says_why(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot
) -> None:
    worker.engine.fail_at = "token"
    window.send("Hi")
    qtbot.waitUntil(lambda: not window.state.is_streaming, timeout=END_MS)
    reply = window.chats.session.shown_thread[-1]
    assert (reply.text, reply.state) == ("Hel", MessageState.FAILED)
    assert "died mid-reply" in reply.stats["error"]
    assert window.error_banner.isVisible()


@pytest.mark.expected_log("app.errors", logging.ERROR, "too long")
def test_a_turn_the_window_refuses_leaves_no_reply_and_the_banner_says_why(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot
) -> None:
    worker.engine.refuse = "Your message is too long for the context window."
    window.send("Hi")
    qtbot.waitUntil(lambda: not window.state.is_streaming, timeout=END_MS)
    assert [m.role for m in window.chats.session.shown_thread] == ["user"]
    assert worker.engine.generated == []
    assert window.error_banner.isVisible()


def test_regenerate_writes_the_reply_again_as_another_version(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot
) -> None:
    send(window, qtbot, "Hi")
    worker.engine.tokens = ("Hey",)
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.chats.regenerate()
    session = window.chats.session
    assert [(m.role, m.text) for m in session.shown_thread] == [("user", "Hi"), ("assistant", "Hey")]
    assert session.versions[session.shown_thread[-1].id] == (1, 2)


def test_edit_and_continue_replies_to_the_new_text(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot
) -> None:
    send(window, qtbot, "Hi")
    first = window.chats.session.shown_thread[0]
    with qtbot.waitSignal(window.replyFinished, timeout=END_MS):
        window.chats.edit_and_continue(first.id, "Hello again")
    reply_plans = [r for r in worker.engine.planned if r.purpose == "reply"]
    assert reply_plans[-1].messages[-1].text == "Hello again"
    assert [m.text for m in window.chats.session.shown_thread] == ["Hello again", "Hello there!"]


def test_only_slim_records_cross_into_the_engine(window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot) -> None:
    send(window, qtbot, "Hi")
    send(window, qtbot, "And again")  # the history now holds a reply saved with its stats
    assert window.chats.session.shown_thread[1].stats
    window.chats.refresh_meter()
    # the meter plans the next turn: the four messages and the one being typed
    qtbot.waitUntil(lambda: any(r.purpose == "meter" and len(r.messages) == 5 for r in worker.engine.planned))
    for request in worker.engine.planned:
        assert not any(isinstance(m, Message) for m in request.messages)
        crossing = pickle.dumps(request)
        assert b"completion_tokens" not in crossing and b"stats" not in crossing


def test_the_reply_is_generated_from_the_plans_tokens(
    window: MainWindow, worker: ScriptedModelWorker, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = worker.engine.plan

    def with_ids(request):  # type: ignore[no-untyped-def]
        from dataclasses import replace

        result = plan(request)
        assert request.with_ids == (request.purpose == "reply")
        return replace(result, plan=replace(result.plan, prompt_ids=(1, 2, 3))) if request.with_ids else result

    monkeypatch.setattr(worker.engine, "plan", with_ids)
    send(window, qtbot, "Hi")
    assert [r.prompt_ids for r in worker.requests] == [(1, 2, 3)]
