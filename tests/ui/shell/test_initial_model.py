"""The window opened with a model (`glassbox gui --model PATH`) loads that model, never another in its stead."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.models.library import installed_models
from app.core.paths import app_paths
from app.ui.shell.main_window import MainWindow
from app.ui.shell.model_loading import ModelLoader

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
