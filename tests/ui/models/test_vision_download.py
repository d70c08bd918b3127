"""The Models window offers a vision model's projector with it: one Download fetches both files, each checked
against the Hub's SHA-256, and the library lists the model as one that can see (the projector is no model of
its own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.hub.downloads.job import JobState
from app.core.memory.fit import Machine
from app.core.models.hashing import VerifyState
from app.core.paths import app_paths
from app.core.support.formatting import format_bytes
from app.ui.models.manager import ModelManagerDialog
from tests.fakes.fake_hub import FakeHub
from tests.fakes.memory_keyring import MemoryKeyring

REPO = "acme/Tiny-Vision-GGUF"
MODEL = "tiny-vision-Q8_0.gguf"
PROJECTOR = "mmproj-tiny-vision-f16.gguf"
WAIT_MS = 20_000


@pytest.fixture
def dialog(
    fake_hub: FakeHub, tmp_path: Path, qtbot: QtBot, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ModelManagerDialog]:
    model = write_synthetic_model(tmp_path / MODEL, SyntheticModel(n_layers=1, n_embd=64, n_ff=64, n_vocab=300))
    projector = write_synthetic_projector(tmp_path / PROJECTOR, SyntheticProjector(text_embd=64))
    fake_hub.add_repo(REPO, {MODEL: model, PROJECTOR: projector})
    monkeypatch.setattr("app.ui.models.workers.machine_now", lambda: Machine(None, 8 * 1024**3))
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown()


def test_a_vision_model_downloads_with_its_projector_in_one_action_and_the_library_marks_it(
    dialog: ModelManagerDialog, qtbot: QtBot, fake_hub: FakeHub
) -> None:
    discover = dialog.discover
    with qtbot.waitSignal(discover.resultsShown, timeout=WAIT_MS):
        qtbot.keyClicks(discover.search_edit, "vision")
        qtbot.keyClick(discover.search_edit, Qt.Key.Key_Return)
    with qtbot.waitSignal(discover.listingShown, timeout=WAIT_MS):
        discover.results.selectRow(0)
    assert discover.variants.rowCount() == 1  # the projector is offered with the model, not as a variant
    both = fake_hub.file(REPO, MODEL).size + fake_hub.file(REPO, PROJECTOR).size
    assert discover.download_button.text() == f"Download with its projector, {format_bytes(both)}"
    assert PROJECTOR in discover.download_button.toolTip()

    qtbot.mouseClick(discover.download_button, Qt.MouseButton.LeftButton)
    jobs = dialog.manager.jobs()
    assert [job.request.filename for job in jobs] == [MODEL, PROJECTOR]
    qtbot.waitUntil(lambda: all(job.state is JobState.DONE for job in jobs), timeout=WAIT_MS)

    folder = app_paths().models / "acme" / "Tiny-Vision-GGUF"
    library = dialog.library
    qtbot.waitUntil(lambda: any(e.model.projector is not None for e in library.entries), timeout=WAIT_MS)
    [entry] = [e for e in library.entries if not e.model.is_starter]
    assert (entry.model.path, entry.model.projector) == (folder / MODEL, folder / PROJECTOR)
    assert entry.state is VerifyState.VERIFIED and entry.reference == "hub"
    names = [library.table.item(row, 0).text() for row in range(library.table.rowCount())]
    assert names[0] == "tiny-vision-Q8_0 · 👁 vision" and not any("mmproj" in name for name in names)
    assert f"Reads images: its projector is {PROJECTOR}" in library.table.item(0, 0).toolTip()
