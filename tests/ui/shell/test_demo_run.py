"""A demo run (--screenshot, --quit-after-reply) ends when a load fails: the window closes on the GUI thread."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast

import pytest
from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QComboBox, QWidget
from pytestqt.qtbot import QtBot

from app.ui.shell.application import _schedule_demo
from app.ui.shell.main_window import MainWindow
from app.ui.state_signals import StateSignals
from app.ui.threads import WorkerThread


class FailingWorker(QObject):
    """An LLM worker whose every load fails, on its own thread."""

    loadRequested = Signal()
    loadFailed = Signal(str)
    failed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.loadRequested.connect(self._load)

    def _load(self) -> None:
        self.loadFailed.emit("the model file is damaged")


class IdleOpener(QObject):
    """Open file… with no file being opened."""

    failed = Signal(str)
    is_busy = False


class DemoWindow(QWidget):
    """What a demo run reads of the main window: one model to load, the worker, the state, the reply's end,
    Open file…"""

    replyFinished = Signal(object)

    def __init__(self, worker: FailingWorker) -> None:
        super().__init__()
        self.worker = worker
        self.state_signals = StateSignals(parent=self)
        self.model_picker = QComboBox(self)
        self.model_picker.addItem("tiny.gguf")
        self.open_file = SimpleNamespace(opener=IdleOpener(self))
        self.closed_by: list[QThread] = []

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed_by.append(QThread.currentThread())
        super().closeEvent(event)


@pytest.fixture
def worker() -> Iterator[FailingWorker]:
    failing = FailingWorker()
    thread = WorkerThread(failing, "failing-llm-worker")
    thread.start()
    yield failing
    thread.request_stop()
    assert thread.wait()


@pytest.mark.parametrize("prompt", ["", "Hello"])
def test_a_failed_load_ends_a_demo_run_by_closing_the_window_on_the_gui_thread(
    worker: FailingWorker, qtbot: QtBot, prompt: str
) -> None:
    window = DemoWindow(worker)
    qtbot.addWidget(window)
    window.show()
    args = argparse.Namespace(prompt=prompt, screenshot=None, quit_after_reply=True)
    _schedule_demo(cast(MainWindow, window), args)
    worker.loadRequested.emit()
    qtbot.waitUntil(lambda: window.closed_by != [], timeout=10_000)
    assert window.closed_by == [QThread.currentThread()]
