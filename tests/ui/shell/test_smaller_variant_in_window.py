"""Graceful degradation in the window: a library with two quantizations of one model, and a loader that
runs out of memory for files above a size. The larger one fails; the smaller one is offered (or loaded at
once when the settings say so), and the user is told either way."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.inference.engine import Engine
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.settings import Settings, save_settings
from app.core.types.load import LoadConfig, LoadReport
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS

REPO = ("someone", "Synthetic-Llama-GGUF")
OUT_OF_MEMORY = "failed to allocate CPU buffer of size 9999 MiB"

pytestmark = [
    pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory"),
    pytest.mark.expected_log("app.ui.llm.worker", logging.WARNING, "Model load failed: Not enough memory to load"),
    pytest.mark.expected_log("app.errors", logging.ERROR, "Not enough memory to load synthetic-llama.F16.gguf"),
    pytest.mark.expected_log("app.errors", logging.WARNING, "synthetic-llama.F16.gguf does not fit in memory as asked"),
]


class SmallMemoryEngine(Engine):
    """The real engine, except that a file larger than `limit` bytes runs out of memory, as on a small machine."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.loaded: list[str] = []

    def load(self, config: LoadConfig, progress=None, cancel: threading.Event | None = None) -> LoadReport:
        if config.model_path.stat().st_size > self.limit:
            raise ModelFileError(config.model_path, f"llama.cpp could not load it ({OUT_OF_MEMORY})")
        self.loaded.append(config.model_path.name)
        return super().load(config, progress, cancel)


@pytest.fixture
def library() -> tuple[Path, Path]:
    folder = app_paths().models.joinpath(*REPO)
    folder.mkdir(parents=True)
    large = write_synthetic_model(folder / "synthetic-llama.F16.gguf", SyntheticModel())
    small = write_synthetic_model(
        folder / "synthetic-llama.Q8_0.gguf", SyntheticModel(weight_type=GGMLQuantizationType.Q8_0)
    )
    return large, small


def open_window(qtbot: QtBot, large: Path, small: Path) -> tuple[MainWindow, SmallMemoryEngine]:
    engine = SmallMemoryEngine(limit=(large.stat().st_size + small.stat().st_size) // 2)
    window = MainWindow(llm=LlmThread(LlmWorker(LocalBackend(InProcessEngine(engine)))), initial_model=large)
    qtbot.addWidget(window)
    window.show()
    return window, engine


@pytest.fixture
def offered(qtbot: QtBot, library: tuple[Path, Path]) -> Iterator[MainWindow]:
    window, _engine = open_window(qtbot, *library)
    yield window
    window.close()


def offer_text(window: MainWindow) -> str:
    return next((n.text for n in window.error_banner.notices() if "does not fit in memory" in n.text), "")


def test_the_smaller_quantization_is_offered_and_loads_with_one_click(
    offered: MainWindow, qtbot: QtBot, library: tuple[Path, Path]
) -> None:
    _large, small = library
    qtbot.waitUntil(lambda: bool(offer_text(offered)), timeout=WINDOW_LOAD_TIMEOUT_MS)
    text = offer_text(offered)
    assert text.startswith("synthetic-llama.F16.gguf does not fit in memory as asked (ran out of memory")
    assert "synthetic-llama.Q8_0.gguf (Q8_0) is in the library and fits as asked" in text
    assert offered.state.loaded_model is None  # nothing was switched without asking
    notice = next(n for n in offered.error_banner.notices() if n.text == text)
    assert notice.action is not None and notice.action.label == "Load synthetic-llama.Q8_0.gguf"

    with qtbot.waitSignal(offered.state_signals.modelLoaded, timeout=WINDOW_LOAD_TIMEOUT_MS):
        notice.action.run()
    assert offered.state.loaded_model == small


def test_with_the_setting_on_the_smaller_quantization_is_loaded_at_once_and_the_user_told(
    qtbot: QtBot, library: tuple[Path, Path]
) -> None:
    large, small = library
    settings = Settings()
    save_settings(app_paths().settings_file, settings.with_monitor({"switch_to_smaller_variant": True}))
    window, engine = open_window(qtbot, large, small)
    try:
        qtbot.waitUntil(lambda: window.state.loaded_model == small, timeout=WINDOW_LOAD_TIMEOUT_MS)
        text = offer_text(window)
        assert "Loading synthetic-llama.Q8_0.gguf (Q8_0) from the library instead: it fits as asked" in text
        assert engine.loaded == ["synthetic-llama.Q8_0.gguf"]
    finally:
        window.close()
