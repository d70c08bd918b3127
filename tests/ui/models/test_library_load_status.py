"""The Models window says how a load it asked for ended, instead of "Loading…" for ever."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.models.library import InstalledModel
from app.ui.models.manager import ModelManagerDialog
from tests.fakes.memory_keyring import MemoryKeyring


@pytest.fixture
def library_asking_for_a_load(
    qtbot: QtBot, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ModelManagerDialog]:
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    model = InstalledModel("tiny", Path("/models/tiny.gguf"), 1024)
    monkeypatch.setattr(window.library, "selected_model", lambda: model)
    with qtbot.waitSignal(window.library.loadRequested):
        window.library.load_selected()
    assert window.library.status.text() == "Loading tiny in the main window…"
    yield window
    assert window.shutdown()


def test_a_finished_load_is_said(library_asking_for_a_load: ModelManagerDialog) -> None:
    library_asking_for_a_load.library.show_load_ended()
    assert library_asking_for_a_load.library.status.text() == "tiny is loaded in the main window."


def test_a_failed_load_says_why(library_asking_for_a_load: ModelManagerDialog) -> None:
    library_asking_for_a_load.library.show_load_ended("not a GGUF file")
    assert library_asking_for_a_load.library.status.text() == "tiny could not be loaded: not a GGUF file"


def test_a_cancelled_load_is_said(library_asking_for_a_load: ModelManagerDialog) -> None:
    library_asking_for_a_load.library.show_load_cancelled("Cancelled")
    assert library_asking_for_a_load.library.status.text() == "Loading tiny was cancelled."
