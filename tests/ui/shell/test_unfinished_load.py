"""Crash-loop protection in the window: a model whose last load never finished is not loaded again on its own.

A load that takes the process down (llama.cpp aborting, the OOM killer) leaves the load marker
behind; "a crashed load" here is a marker written and never cleared.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.inference.engine import Engine
from app.core.models.load_guard import begin_load, unfinished_load
from app.core.models.validation import ModelFileError
from app.core.types.load import LoadConfig, LoadReport
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS, WindowOpener


class MarkerWatchingEngine(Engine):
    """The real engine, noting which load the marker names while llama.cpp loads."""

    def __init__(self) -> None:
        super().__init__()
        self.marked_during_load: list[Path | None] = []

    def load(self, config: LoadConfig, progress=None, cancel: threading.Event | None = None) -> LoadReport:
        self.marked_during_load.append(unfinished_load())
        return super().load(config, progress, cancel)


class FailingEngine(Engine):
    def load(self, config: LoadConfig, progress=None, cancel: threading.Event | None = None) -> LoadReport:
        raise ModelFileError(config.model_path, "llama.cpp could not load it (test)")


@pytest.mark.requires_model  # Try again loads the starter
@pytest.mark.expected_log("app.ui.shell.model_choice", logging.WARNING, "Not loading .* again: Glassbox closed while")
def test_a_model_whose_load_never_finished_is_not_loaded_at_start_and_can_be_tried_again(
    qtbot: QtBot, starter_model: Path
) -> None:
    begin_load(starter_model)  # ... and the process died
    main = MainWindow()
    qtbot.addWidget(main)
    main.show()
    assert not main.state.is_loading and main.state.loaded_model is None
    notice = main.models.unfinished_notice
    assert notice is not None and notice.isVisible()
    assert f"Glassbox closed while loading {starter_model.name} last time; it was not loaded again" in (
        notice.label.text()
    )
    assert main.status_label.text() == "No model loaded"
    assert unfinished_load() is None  # said once; not again at the next start

    notice.retry_button.click()
    qtbot.waitUntil(lambda: main.state.loaded_model == starter_model, timeout=WINDOW_LOAD_TIMEOUT_MS)
    assert not notice.isVisible()
    assert unfinished_load() is None  # the load finished: the marker is gone


def test_the_marker_names_the_model_during_its_load_and_is_cleared_after(open_main_window: WindowOpener) -> None:
    engine = MarkerWatchingEngine()
    main = open_main_window(llm=LlmThread(LlmWorker(LocalBackend(InProcessEngine(engine)))))
    assert engine.marked_during_load == [main.state.loaded_model]
    assert unfinished_load() is None
    assert main.models.unfinished_notice is None


@pytest.mark.expected_log("app.ui.llm.worker", logging.WARNING, "Model load failed: .*llama.cpp could not load it")
def test_a_load_that_fails_cleanly_clears_the_marker(qtbot: QtBot, tmp_path: Path) -> None:
    worker = LlmWorker(LocalBackend(InProcessEngine(FailingEngine())))  # no LLM thread: the request runs at once, here
    with qtbot.waitSignal(worker.loadFailed, timeout=10_000):
        worker.loadRequested.emit(LoadConfig(tmp_path / "model.gguf"))
    assert unfinished_load() is None
