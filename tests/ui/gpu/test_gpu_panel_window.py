"""The GPU panel inside the main window: Apply saves the load settings and reloads on the LLM worker; an
out-of-memory fallback is told and its layer count saved; the settings panel shows the same saved values."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.inference.engine import Engine
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.settings import ModelSettings, load_settings
from app.core.types.load import LoadConfig, LoadReport
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WindowOpener

CUDA_OOM = "cudaMalloc failed: out of memory"


class SmallGpuEngine(Engine):
    """The real engine, except that more than `fits` GPU layers fail the way a CUDA build does."""

    def __init__(self, fits: int) -> None:
        super().__init__()
        self.fits = fits
        self.attempts: list[int] = []

    def load(self, config: LoadConfig, progress=None, cancel: threading.Event | None = None) -> LoadReport:
        self.attempts.append(config.n_gpu_layers)
        if config.n_gpu_layers > self.fits:
            raise ModelFileError(config.model_path, f"llama.cpp could not load it ({CUDA_OOM})")
        return super().load(config, progress, cancel)


def open_window(open_main_window: WindowOpener, qtbot: QtBot) -> MainWindow:
    """A window whose engine runs out of GPU memory above 10 layers."""
    main = open_main_window(llm=LlmThread(LlmWorker(LocalBackend(InProcessEngine(SmallGpuEngine(fits=10))))))
    qtbot.waitUntil(lambda: main.gpu_panel.planner is not None, timeout=30_000)
    return main


@pytest.fixture
def window(open_main_window: WindowOpener, qtbot: QtBot) -> MainWindow:
    return open_window(open_main_window, qtbot)


def test_the_panel_is_a_dock_in_the_view_menu_and_plans_the_loaded_model(window: MainWindow) -> None:
    assert "GPU offload" in [action.text().replace("&", "") for action in window.view_menu.actions()]
    assert window.gpu_panel.config is not None
    assert window.gpu_panel.config.model_path == window.state.loaded_model
    assert window.gpu_panel.slider.maximum() == 31


def test_apply_reloads_the_model_with_the_new_settings_and_shows_progress(window: MainWindow, qtbot: QtBot) -> None:
    panel = window.gpu_panel
    panel.slider.setValue(4)
    panel.context_box.setValue(1024)
    progress: list[float] = []
    window.worker.loadProgress.connect(progress.append)

    with qtbot.waitSignal(window.state_signals.modelLoaded, timeout=30_000) as loaded:
        panel.apply_button.click()
        assert not panel.apply_button.isEnabled() and panel.progress.isVisibleTo(panel)  # busy until loaded
    report: LoadReport = loaded.args[0]
    assert (report.config.n_gpu_layers, report.config.n_ctx) == (4, 1024)
    own = window.settings_store.model_settings(Path(report.config.model_path).name)
    assert (own.n_gpu_layers, own.n_ctx) == (4, 1024), "saved as that model's own load settings"
    assert window.settings_store.settings.model == ModelSettings(), "the defaults for other models are unchanged"
    assert progress and progress[-1] == 1.0
    qtbot.waitUntil(lambda: panel.apply_button.isEnabled())
    assert not panel.progress.isVisibleTo(panel)


@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory .*; trying again")
@pytest.mark.expected_log(
    "app.errors", logging.WARNING, "Not enough GPU memory for 31 GPU layers .* Loaded with 7 GPU layers instead"
)
def test_out_of_gpu_memory_falls_back_and_tells_the_user_which_setting_holds(window: MainWindow, qtbot: QtBot) -> None:
    panel = window.gpu_panel
    panel.slider.setValue(31)

    with qtbot.waitSignal(window.state_signals.modelLoaded, timeout=60_000) as loaded:
        panel.apply_button.click()

    assert loaded.args[0].config.n_gpu_layers == 7  # 31 -> 15 -> 11 -> 7
    assert window.worker.backend.link.engine.attempts[-4:] == [31, 15, 11, 7]
    assert window.settings_store.model_settings(Path(loaded.args[0].config.model_path).name).n_gpu_layers == 7
    banner = window.error_banner.message()
    assert "Not enough GPU memory for 31 GPU layers (cudaMalloc failed: out of memory)" in banner
    assert "GPU layers is now set to 7" in banner
    assert "now set to 7" in panel.notice.text()
    qtbot.waitUntil(lambda: panel.slider.value() == 7)
    assert window.send_button.isEnabled()  # the model is usable: no crash, no silent CPU fallback


def test_applied_gpu_layers_and_context_are_saved_and_the_next_start_loads_with_them(
    window: MainWindow, qtbot: QtBot, open_main_window: WindowOpener
) -> None:
    panel = window.gpu_panel
    panel.slider.setValue(4)
    panel.context_box.setValue(1024)
    with qtbot.waitSignal(window.state_signals.modelLoaded, timeout=30_000):
        panel.apply_button.click()
    model = window.state.loaded_model
    assert model is not None
    window.close()
    saved = load_settings(app_paths().settings_file).settings
    assert saved.model_for(model.name) == ModelSettings(n_ctx=1024, n_gpu_layers=4) and saved.model == ModelSettings()

    again = open_window(open_main_window, qtbot)
    try:
        assert again.state.loaded_config is not None
        assert (again.state.loaded_config.n_gpu_layers, again.state.loaded_config.n_ctx) == (4, 1024)
        assert (again.gpu_panel.slider.value(), again.gpu_panel.context_box.value()) == (4, 1024)
    finally:
        again.close()


def test_the_settings_panel_shows_what_the_gpu_panel_applied(window: MainWindow, qtbot: QtBot) -> None:
    settings_panel = window.chats.settings_panel
    window.gpu_panel.slider.setValue(4)
    window.gpu_panel.context_box.setValue(1024)
    with qtbot.waitSignal(window.state_signals.modelLoaded, timeout=30_000):
        window.gpu_panel.apply_button.click()
    assert settings_panel.model.rows["n_ctx"].editor.text() == "1024"
    assert settings_panel.model.gpu_layers_note.text().startswith("4 ")


def test_a_context_length_typed_in_the_settings_panel_shows_in_the_gpu_panel_and_keeps_its_layer_draft(
    window: MainWindow,
) -> None:
    panel = window.gpu_panel
    panel.slider.setValue(6)  # tried out, not applied
    window.chats.settings_panel.set_field_text("n_ctx", "1536")
    assert window.state.loaded_model is not None
    assert window.settings_store.model_settings(window.state.loaded_model.name).n_ctx == 1536
    assert panel.context_box.value() == 1536
    assert panel.slider.value() == 6
    assert panel.selected_config() is not None and panel.selected_config().n_ctx == 1536


@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory .*; trying again")
@pytest.mark.expected_log(
    "app.errors", logging.WARNING, "Not enough GPU memory for 31 GPU layers .* Loaded with 7 GPU layers instead"
)
def test_the_layer_count_that_held_after_an_out_of_memory_fallback_is_saved(window: MainWindow, qtbot: QtBot) -> None:
    window.gpu_panel.slider.setValue(31)
    with qtbot.waitSignal(window.state_signals.modelLoaded, timeout=60_000):
        window.gpu_panel.apply_button.click()
    assert window.chats.settings_panel.model.gpu_layers_note.text().startswith("7 ")
    model = window.state.loaded_model
    assert model is not None
    window.close()
    assert load_settings(app_paths().settings_file).settings.model_for(model.name).n_gpu_layers == 7
