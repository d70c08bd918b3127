"""In the window, an edit reaches the subscribers of its own settings section only: a temperature edit
plans no context window and leaves the GPU panel and the monitor alone; max tokens and the context
length reach the ones that read them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.settings import ModelSettings
from app.ui.shell.main_window import MainWindow

pytestmark = pytest.mark.window(greedy_tokens=4)


class Seen:
    """What the window did after an edit: context plans asked for, GPU panel refreshes, store sections."""

    def __init__(self, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
        self.plans = 0
        self.gpu_refreshes: list[ModelSettings] = []
        self.sections: list[str] = []
        # direct: counted as the request is made (the worker lives on its own thread)
        window.worker.planRequested.connect(self._planned, Qt.ConnectionType.DirectConnection)
        monkeypatch.setattr(window.gpu_panel, "show_settings", self.gpu_refreshes.append)
        store = window.settings_store
        for name, signal in (
            ("sampling", store.samplingChanged),
            ("plan", store.planChanged),
            ("model", store.modelChanged),
            ("monitor", store.monitorChanged),
        ):
            signal.connect(lambda name=name: self.sections.append(name))

    def _planned(self, _request: object) -> None:
        self.plans += 1


def quiet(window: MainWindow, qtbot: QtBot) -> None:
    """No context plan on its way (the one after the load has come back)."""
    qtbot.waitUntil(lambda: window.chats.last_plan is not None and not window.chats._meter_pending, timeout=30_000)


def test_a_temperature_edit_touches_the_sampling_subscribers_only(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet(window, qtbot)
    seen = Seen(window, monkeypatch)
    window.chats.settings_panel.set_field_text("temperature", "1.3")
    assert window.chats.session.effective().sampling.temperature == 1.3
    assert seen.sections == ["sampling"]
    assert seen.plans == 0, "the context window does not depend on the temperature"
    assert seen.gpu_refreshes == []


def test_max_tokens_plans_the_context_window_again_and_the_context_length_refreshes_the_gpu_panel(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet(window, qtbot)
    seen = Seen(window, monkeypatch)
    window.chats.settings_panel.set_field_text("max_tokens", "200")
    assert seen.sections == ["sampling", "plan"] and seen.plans == 1 and seen.gpu_refreshes == []
    quiet(window, qtbot)
    window.chats.settings_panel.set_field_text("n_ctx", "2048")
    assert seen.sections[2:] == ["model"] and seen.plans == 1
    assert [model.n_ctx for model in seen.gpu_refreshes] == [2048]
