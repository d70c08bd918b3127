"""A model file llama.cpp would abort on, lying in the models folder, is refused in the window with the reason."""

from __future__ import annotations

import logging

import pytest
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, set_metadata, write_synthetic_model
from app.core.models.load_guard import unfinished_load
from app.core.paths import app_paths
from app.ui.shell.main_window import MainWindow

REASON = "llama.block_count is 0; a model needs at least one layer"


@pytest.mark.expected_log("app.ui.llm.worker", logging.WARNING, "Model load failed: .*llama.block_count is 0")
@pytest.mark.expected_log("app.errors", logging.ERROR, "llama.block_count is 0")
def test_the_window_refuses_a_hostile_model_with_the_field_named_and_stays_up(qtbot: QtBot) -> None:
    models = app_paths().ensure().models
    bad = write_synthetic_model(
        models / "aaa-broken.gguf", SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_vocab=300)
    )
    set_metadata(bad, "llama.block_count", 0)
    main = MainWindow()  # the first model in the library is loaded at start: this one
    qtbot.addWidget(main)
    main.show()
    qtbot.waitUntil(lambda: REASON in main.error_banner.message(), timeout=30_000)
    assert main.error_banner.message() == f"Cannot use model file {bad}: {REASON}"
    assert main.state.loaded_model is None and not main.state.is_loading
    assert unfinished_load() is None  # a clean refusal: nothing to hold back at the next start
