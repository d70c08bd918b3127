"""A model that looks like a base model is said to be one when it loads, with the way to raw completion."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.paths import app_paths
from app.ui.shell.main_window import MainWindow

TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_head_kv=2, n_ff=128, n_vocab=300, name="Tiny 1B")


def test_loading_a_base_model_says_so_in_the_banner(qtbot: QtBot) -> None:
    model = write_synthetic_model(app_paths().ensure().models / "tiny-base.gguf", TINY)
    window = MainWindow(initial_model=model)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.state.loaded_model == model, timeout=60_000)
        qtbot.waitUntil(lambda: "looks like a base model" in window.error_banner.message(), timeout=10_000)
        assert "Tiny 1B" in window.error_banner.message() and "Raw completion" in window.error_banner.message()
    finally:
        window.close()
