"""Get a better model, for a model that reads images: its Download lists the repository then (never before),
takes the projector the Models window would take, and hands both files, verified, to the download queue, where
the library pairs them. A repository without a projector gives the model alone and one line saying it will read
text only; a Hub that fails while listing gives its reason, downloads nothing, and the button can try again."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.hub.downloads.job import JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.downloads.transfer import RetryPolicy
from app.core.memory.fit import Machine
from app.core.memory.planner import GIB, ContextSettings
from app.core.models.hashing import VerifyState
from app.core.models.recommended import RECOMMENDED_MODELS
from app.core.paths import app_paths
from app.ui.models.manager import ModelManagerDialog
from app.ui.models.recommended_dialog import RecommendedModelsDialog
from tests.fakes.fake_hub import FakeHub
from tests.fakes.memory_keyring import MemoryKeyring

WAIT_MS = 20_000
ROOMY = Machine(free_vram=None, free_ram=64 * GIB)  # every recommendation fits
GEMMA = next(model for model in RECOMMENDED_MODELS if model.name == "Gemma 3 4B it")
F16 = "mmproj-google_gemma-3-4b-it-f16.gguf"
F32 = "mmproj-google_gemma-3-4b-it-f32.gguf"


@pytest.fixture
def models_window(qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[ModelManagerDialog]:
    fast = RetryPolicy(attempts=2, base_delay_s=0.01, max_delay_s=0.05)
    window = ModelManagerDialog(manager=DownloadManager(app_paths(), retry=fast))
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown()


@pytest.fixture
def dialog(qtbot: QtBot, models_window: ModelManagerDialog) -> Iterator[RecommendedModelsDialog]:
    window = RecommendedModelsDialog(measure=lambda: ROOMY, context=lambda: ContextSettings.for_load(4096))
    qtbot.addWidget(window)
    window.downloadRequested.connect(models_window.start_downloads)  # as the main window connects them
    window.show()
    window.plan()
    qtbot.waitUntil(lambda: window.table.rowCount() == len(RECOMMENDED_MODELS), timeout=WAIT_MS)
    yield window
    assert window.shutdown()


def gemma_repo(hub: FakeHub, folder: Path, *projectors: str) -> None:
    """Gemma's repository on the Hub, its model a tiny synthetic one and its projectors made for that model."""
    model = write_synthetic_model(folder / GEMMA.filename, SyntheticModel(n_layers=1, n_embd=64, n_ff=64, n_vocab=300))
    files: dict[str, bytes | Path] = {GEMMA.filename: model}
    for seed, name in enumerate(projectors):
        files[name] = write_synthetic_projector(folder / name, SyntheticProjector(text_embd=64), seed=seed)
    hub.add_repo(GEMMA.repo_id, files)


def click_download(dialog: RecommendedModelsDialog, qtbot: QtBot) -> None:
    button = dialog.button_for(GEMMA.filename)
    assert button is not None and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def gemma_folder() -> Path:
    owner, name = GEMMA.repo_id.split("/")
    return app_paths().models / owner / name


def test_a_vision_recommendation_downloads_with_its_f16_projector_both_verified_and_the_library_pairs_them(
    dialog: RecommendedModelsDialog, models_window: ModelManagerDialog, fake_hub: FakeHub, tmp_path: Path, qtbot: QtBot
) -> None:
    gemma_repo(fake_hub, tmp_path, F32, F16)
    assert not fake_hub.requests  # the list asked the Hub nothing
    click_download(dialog, qtbot)
    qtbot.waitUntil(lambda: len(models_window.manager.jobs()) == 2, timeout=WAIT_MS)
    asked = [request.path for request in fake_hub.requests if request.path.startswith("/api/")]
    assert asked == [f"/api/models/{GEMMA.repo_id}"]  # one listing, at the click
    jobs = models_window.manager.jobs()
    commit = fake_hub.repos[GEMMA.repo_id].commit
    assert [(job.request.filename, job.request.revision) for job in jobs] == [(GEMMA.filename, commit), (F16, commit)]
    assert [job.request.expected_sha256 for job in jobs] == [
        fake_hub.file(GEMMA.repo_id, name).sha256 for name in (GEMMA.filename, F16)
    ]
    button = dialog.button_for(GEMMA.filename)
    assert button is not None and not button.isEnabled() and button.text() == "In Downloads"
    qtbot.waitUntil(lambda: all(job.state is JobState.DONE for job in jobs), timeout=WAIT_MS)

    library = models_window.library
    qtbot.waitUntil(lambda: any(e.model.projector is not None for e in library.entries), timeout=WAIT_MS)
    [entry] = [e for e in library.entries if not e.model.is_starter]
    assert (entry.model.path, entry.model.projector) == (gemma_folder() / GEMMA.filename, gemma_folder() / F16)
    assert entry.state is VerifyState.VERIFIED and entry.reference == "hub"
    assert not fake_hub.file_requests(F32)  # the other precision stays on the Hub
    assert not models_window.banner.message()  # nothing to tell


def test_a_vision_recommendation_whose_repository_has_no_projector_downloads_alone_with_one_line_saying_so(
    dialog: RecommendedModelsDialog, models_window: ModelManagerDialog, fake_hub: FakeHub, tmp_path: Path, qtbot: QtBot
) -> None:
    gemma_repo(fake_hub, tmp_path)
    click_download(dialog, qtbot)
    qtbot.waitUntil(lambda: len(models_window.manager.jobs()) == 1, timeout=WAIT_MS)
    note = f"{GEMMA.repo_id} publishes no projector for {GEMMA.name}, so it will read text only."
    assert models_window.banner.message() == note  # one line, beside the download
    [job] = models_window.manager.jobs()
    qtbot.waitUntil(lambda: job.state is JobState.DONE, timeout=WAIT_MS)
    library = models_window.library
    qtbot.waitUntil(lambda: any(not e.model.is_starter for e in library.entries), timeout=WAIT_MS)
    [entry] = [e for e in library.entries if not e.model.is_starter]
    assert entry.model.projector is None and entry.state is VerifyState.VERIFIED


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(server error\)")
@pytest.mark.expected_log("app.errors", logging.ERROR, "was not downloaded, as its projector could not be looked up")
def test_a_hub_that_fails_while_listing_gives_its_reason_downloads_nothing_and_the_button_tries_again(
    dialog: RecommendedModelsDialog, models_window: ModelManagerDialog, fake_hub: FakeHub, tmp_path: Path, qtbot: QtBot
) -> None:
    gemma_repo(fake_hub, tmp_path, F16)
    fake_hub.api_statuses = [503]
    click_download(dialog, qtbot)
    qtbot.waitUntil(lambda: bool(dialog.banner.message()), timeout=WAIT_MS)
    message = dialog.banner.message()
    assert message.startswith(f"{GEMMA.name} was not downloaded, as its projector could not be looked up.")
    assert "server error" in message and "try again" in message
    assert models_window.manager.jobs() == [] and not gemma_folder().exists()  # nothing half-downloaded
    assert not fake_hub.file_requests(GEMMA.filename) and not fake_hub.file_requests(GEMMA.filename, "HEAD")
    button = dialog.button_for(GEMMA.filename)
    assert button is not None and button.isEnabled() and button.text() == "Download"

    click_download(dialog, qtbot)  # the Hub is back
    qtbot.waitUntil(lambda: len(models_window.manager.jobs()) == 2, timeout=WAIT_MS)
    jobs = models_window.manager.jobs()
    assert [job.request.filename for job in jobs] == [GEMMA.filename, F16]
    qtbot.waitUntil(lambda: all(job.state is JobState.DONE for job in jobs), timeout=WAIT_MS)
    assert not dialog.banner.message()  # the reason went with the try that worked
