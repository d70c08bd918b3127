"""The model loaded at start: the one asked for (`glassbox gui --model PATH`), never another in its stead;
else the one on duty at the last close; else the first of the library."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.models.library import installed_models
from app.core.paths import app_paths
from app.ui.shell.main_window import WINDOW_FILE, MainWindow
from app.ui.shell.model_loading import ModelLoader
from app.ui.shell.window_memory import WindowMemory, save_memory

WAIT_MS = 20_000
TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_vocab=300)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The models the window asks the engine to load (none is loaded: each is only noted)."""
    asked: list[Path] = []
    monkeypatch.setattr(ModelLoader, "load", lambda _loader, path: asked.append(path))
    return asked


@pytest.fixture
def model(tmp_path: Path) -> Path:
    (tmp_path / "downloads").mkdir()
    return write_synthetic_model(tmp_path / "downloads" / "tiny-chat.gguf", TINY)


@pytest.fixture
def open_window(qtbot: QtBot) -> Iterator[list[MainWindow]]:
    opened: list[MainWindow] = []
    yield opened
    for window in opened:
        window.close()


def test_a_model_the_library_does_not_have_is_added_in_place_and_loaded(
    loads: list[Path], model: Path, open_window: list[MainWindow], qtbot: QtBot
) -> None:
    window = MainWindow(initial_model=model)
    open_window.append(window)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: loads != [], timeout=WAIT_MS)
    assert loads == [model]  # and not the starter model first
    assert window.model_picker.currentData() == str(model)
    assert model in [entry.path for entry in installed_models(app_paths().models)]


def test_a_model_the_library_has_is_loaded_at_once(
    loads: list[Path], model: Path, open_window: list[MainWindow], qtbot: QtBot
) -> None:
    in_library = app_paths().ensure().models / model.name
    model.rename(in_library)
    window = MainWindow(initial_model=in_library)
    open_window.append(window)
    qtbot.addWidget(window)
    assert loads == [in_library]
    assert not window.open_file.opener.is_busy


def _two_library_models() -> tuple[Path, Path]:
    folder = app_paths().ensure().models
    return (
        write_synthetic_model(folder / "alpha-chat.gguf", TINY),
        write_synthetic_model(folder / "beta-chat.gguf", TINY),
    )


def _remember_on_duty(model: Path) -> None:
    save_memory(app_paths().config / WINDOW_FILE, WindowMemory(last_model=str(model)))


def test_the_model_on_duty_at_the_last_close_is_loaded_at_the_next_start_not_the_first_of_the_library(
    loads: list[Path], open_window: list[MainWindow], qtbot: QtBot
) -> None:
    _first, second = _two_library_models()
    _remember_on_duty(second)
    window = MainWindow()
    open_window.append(window)
    qtbot.addWidget(window)
    assert loads == [second]
    assert window.model_picker.currentData() == str(second)


def test_when_the_remembered_models_file_has_gone_the_first_of_the_library_is_loaded(
    loads: list[Path], open_window: list[MainWindow], qtbot: QtBot
) -> None:
    first, second = _two_library_models()
    _remember_on_duty(second)
    second.unlink()
    window = MainWindow()
    open_window.append(window)
    qtbot.addWidget(window)
    assert loads == [first]


def test_a_model_asked_for_at_start_wins_over_the_remembered_one(
    loads: list[Path], open_window: list[MainWindow], qtbot: QtBot
) -> None:
    first, second = _two_library_models()
    _remember_on_duty(second)
    window = MainWindow(initial_model=first)
    open_window.append(window)
    qtbot.addWidget(window)
    assert loads == [first]
