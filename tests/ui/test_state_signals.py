"""The application state as Qt signals: every change, a loaded model, the start and end of streaming."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.state import AppState
from app.core.types.load import LoadConfig, LoadReport
from app.ui.state_signals import StateSignals

CONFIG = LoadConfig(Path("/models/small.gguf"))


def test_a_loaded_model_is_signalled_with_its_report(qtbot: QtBot) -> None:
    signals = StateSignals(AppState())
    report = LoadReport(CONFIG)
    signals.state.load_started(CONFIG)
    with qtbot.waitSignal(signals.modelLoaded) as loaded, qtbot.waitSignal(signals.changed):
        signals.state.load_finished(report)
    assert loaded.args == [report]


def test_streaming_is_signalled_when_it_starts_and_when_it_stops(qtbot: QtBot) -> None:
    signals = StateSignals(AppState())
    signals.state.load_started(CONFIG)
    signals.state.load_finished(LoadReport(CONFIG))
    streaming: list[bool] = []
    signals.streamingChanged.connect(streaming.append)
    signals.state.reply_started()
    signals.state.chat_opened("another")  # a change, but streaming goes on
    signals.state.closing()  # the reply is no longer written
    assert streaming == [True, False]


def test_a_transition_that_changes_nothing_signals_nothing(qtbot: QtBot) -> None:
    signals = StateSignals(AppState())
    with qtbot.assertNotEmitted(signals.changed):
        signals.state.reply_ended()
