"""Get a better model: the recommended models sized for a given machine, fitting ones first; a click downloads."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.hub.downloads.job import JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.downloads.transfer import RetryPolicy
from app.core.memory.fit import Machine
from app.core.memory.planner import GIB, ContextSettings
from app.core.memory.recommended_fit import size_recommended
from app.core.models.recommended import RECOMMENDED_MODELS
from app.core.paths import app_paths
from app.ui.models.manager import ModelManagerDialog
from app.ui.models.recommended_dialog import FIT, GOOD_FOR, MODEL, RecommendedModelsDialog
from tests.fakes.fake_hub import FakeHub, gguf_bytes
from tests.fakes.memory_keyring import MemoryKeyring

WAIT_MS = 20_000
CONTEXT = ContextSettings.for_load(4096)
SMALL_GPU = Machine(free_vram=2 * GIB, free_ram=3 * GIB)  # splits the list: on the GPU, partly, too large
SMALLEST = RECOMMENDED_MODELS[0]


@pytest.fixture
def dialog(qtbot: QtBot) -> Iterator[RecommendedModelsDialog]:
    window = RecommendedModelsDialog(measure=lambda: SMALL_GPU, context=lambda: CONTEXT)
    qtbot.addWidget(window)
    window.show()
    window.plan()
    qtbot.waitUntil(lambda: window.table.rowCount() == len(RECOMMENDED_MODELS), timeout=WAIT_MS)
    yield window
    assert window.shutdown()


@pytest.fixture
def models_window(qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[ModelManagerDialog]:
    fast = RetryPolicy(attempts=2, base_delay_s=0.01, max_delay_s=0.05)
    window = ModelManagerDialog(manager=DownloadManager(app_paths(), retry=fast))
    qtbot.addWidget(window)
    window.show()  # as the main window shows it for a download
    yield window
    assert window.shutdown()


def column(dialog: RecommendedModelsDialog, index: int) -> list[str]:
    return [dialog.table.item(row, index).text() for row in range(dialog.table.rowCount())]


def test_the_list_is_sized_for_the_machine_and_the_ones_that_fit_come_first(dialog: RecommendedModelsDialog) -> None:
    expected = size_recommended(SMALL_GPU, CONTEXT)
    assert [item.model for item in dialog.sized] == [item.model for item in expected]
    fits = column(dialog, FIT)
    assert fits[0] == "Fits on the GPU"
    assert fits == sorted(fits, key=["Fits on the GPU", "Fits, partly on the GPU", "Too large"].index)
    assert {"Fits on the GPU", "Fits, partly on the GPU", "Too large"} == set(fits)
    assert column(dialog, MODEL)[0] == SMALLEST.name
    assert "2.00 GiB free on the GPU" in dialog.machine_label.text()
    too_large = [item.model.filename for item in dialog.sized if not item.fits]
    assert too_large and all(not dialog.button_for(name).isEnabled() for name in too_large)  # type: ignore[union-attr]


def test_a_click_on_download_puts_the_model_into_the_models_window_queue_and_installs_it(
    dialog: RecommendedModelsDialog, models_window: ModelManagerDialog, fake_hub: FakeHub, tmp_path: Path, qtbot: QtBot
) -> None:
    fake_hub.add_repo(SMALLEST.repo_id, {SMALLEST.filename: gguf_bytes(tmp_path, "q.gguf")})
    dialog.downloadRequested.connect(models_window.start_downloads)
    button = dialog.button_for(SMALLEST.filename)
    assert button is not None and button.isEnabled()
    with qtbot.waitSignal(models_window.modelInstalled, timeout=WAIT_MS) as installed:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    owner, name = SMALLEST.repo_id.split("/")
    assert installed.args == [app_paths().models / owner / name / SMALLEST.filename]
    assert not button.isEnabled() and button.text() == "In Downloads"  # one click, one download


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: Cannot reach")
@pytest.mark.expected_log("app.errors", logging.ERROR, "Cannot reach")
def test_offline_the_list_still_shows_and_the_download_fails_with_the_clear_offline_message(
    models_window: ModelManagerDialog, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeHub() as stopped:
        dead = stopped.url
    monkeypatch.setenv("HF_ENDPOINT", dead)
    offline = RecommendedModelsDialog(measure=lambda: SMALL_GPU, context=lambda: CONTEXT)
    qtbot.addWidget(offline)
    offline.show()
    offline.plan()
    qtbot.waitUntil(lambda: offline.table.rowCount() == len(RECOMMENDED_MODELS), timeout=WAIT_MS)
    offline.downloadRequested.connect(models_window.start_downloads)
    qtbot.mouseClick(offline.button_for(SMALLEST.filename), Qt.MouseButton.LeftButton)  # type: ignore[arg-type]
    (job,) = models_window.manager.jobs()
    qtbot.waitUntil(lambda: job.snapshot().state is JobState.FAILED, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "unreachable" in models_window.banner.message(), timeout=WAIT_MS)
    assert "Check your internet connection" in models_window.banner.message()
    assert offline.shutdown()


def test_each_model_says_beside_what_it_is_good_for_whether_it_thinks_calls_tools_and_reads_images(
    dialog: RecommendedModelsDialog,
) -> None:
    good_for = {item.model.name: text for item, text in zip(dialog.sized, column(dialog, GOOD_FOR), strict=True)}
    assert good_for["Qwen3 4B"].endswith("\nThinking · Tools")
    assert good_for["Gemma 3 4B it"].endswith("\nVision")
    assert good_for["Mistral Small 3.2 24B Instruct"].endswith("\nTools · Vision")
    assert "\n" not in good_for["Gemma 3 1B it"]  # nothing beyond chat: no empty line of marks
