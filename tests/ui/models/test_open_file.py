"""Open file…: a chosen .gguf joins the library in place, checked off the GUI thread; a bad file is refused plainly."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

import app.ui.models.workers as library_workers
from app.bench.synthetic_gguf import SyntheticModel, set_metadata, write_synthetic_model
from app.core.models.library import installed_models
from app.core.paths import app_paths
from app.ui.models.open_file import ModelFileOpener

WAIT_MS = 20_000
TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_vocab=300)


@pytest.fixture
def link_threads(monkeypatch: pytest.MonkeyPatch) -> list[threading.Thread]:
    """The threads the library's `link_model` ran in (it still does its work)."""
    threads: list[threading.Thread] = []
    real = library_workers.link_model

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(library_workers, "link_model", spy)
    return threads


@pytest.fixture
def opener(qtbot: QtBot) -> Iterator[ModelFileOpener]:
    window = QWidget()
    qtbot.addWidget(window)
    files = ModelFileOpener(app_paths().ensure().models, window)
    yield files
    assert files.shutdown()


def test_a_gguf_file_is_added_in_place_off_the_gui_thread_and_opened(
    opener: ModelFileOpener, link_threads: list[threading.Thread], tmp_path: Path, qtbot: QtBot
) -> None:
    (tmp_path / "downloads").mkdir()
    model = write_synthetic_model(tmp_path / "downloads" / "tiny-chat.gguf", TINY)
    opener.choose_file = lambda: model
    busy: list[str] = []
    opener.busy.connect(busy.append)
    with qtbot.waitSignal(opener.opened, timeout=WAIT_MS) as opened:
        opener.choose_and_open()
        assert busy == ["Checking tiny-chat.gguf…"]  # said at once; the check runs meanwhile
    assert opened.args == [model]
    assert link_threads and link_threads[0] is not threading.main_thread()
    (added,) = [m for m in installed_models(app_paths().models) if m.path == model]
    assert added.in_place and model.is_file()  # nothing was copied or moved


def test_the_same_file_opened_again_is_not_added_twice_and_opens_the_library_entry(
    opener: ModelFileOpener, tmp_path: Path, qtbot: QtBot
) -> None:
    model = write_synthetic_model(tmp_path / "tiny.gguf", TINY)
    with qtbot.waitSignal(opener.opened, timeout=WAIT_MS):
        opener.open(model)
    qtbot.waitUntil(lambda: not opener.is_busy, timeout=WAIT_MS)
    notices: list[str] = []
    opener.notice.connect(notices.append)
    with qtbot.waitSignal(opener.opened, timeout=WAIT_MS) as opened:
        opener.open(model)
    assert notices == ["tiny.gguf is already in the library as tiny; that one is loaded."]
    assert opened.args == [model]
    assert [m.path for m in installed_models(app_paths().models)].count(model) == 1


def test_a_file_that_is_not_a_gguf_model_gets_a_clear_message_and_nothing_is_added(
    opener: ModelFileOpener, link_threads: list[threading.Thread], tmp_path: Path, qtbot: QtBot
) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("not a model, just some notes that happen to be long enough for a header\n" * 4)
    with qtbot.waitSignal(opener.failed, timeout=WAIT_MS) as failed:
        opener.open(notes)
    assert failed.args == [
        f"Cannot use model file {notes}: this is not a GGUF file (wrong magic bytes); Glassbox loads .gguf models"
    ]
    assert link_threads and link_threads[0] is not threading.main_thread()
    assert all(m.path != notes for m in installed_models(app_paths().models))


def test_a_hostile_gguf_is_refused_with_the_field_named(opener: ModelFileOpener, tmp_path: Path, qtbot: QtBot) -> None:
    bad = write_synthetic_model(tmp_path / "broken.gguf", TINY)
    set_metadata(bad, "llama.block_count", 0)
    with qtbot.waitSignal(opener.failed, timeout=WAIT_MS) as failed:
        opener.open(bad)
    assert "llama.block_count is 0; a model needs at least one layer" in failed.args[0]
    assert all(m.path != bad for m in installed_models(app_paths().models))
