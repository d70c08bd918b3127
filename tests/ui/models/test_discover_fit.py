"""The Models window's fit hints are the memory planner's verdicts, the GPU panel's numbers, for the same file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.hub import remote_header
from app.core.memory.hardware import OffloadSupport
from app.core.memory.planner import (
    DEFAULT_RUNTIME_OVERHEAD,
    DEFAULT_SAFETY_MARGIN,
    GIB,
    ContextSettings,
    MemoryPlanner,
)
from app.core.models.gguf_info import read_gguf_info
from app.core.settings import ModelSettings
from app.ui.models.manager import ModelManagerDialog
from tests.fakes import fake_pynvml
from tests.fakes.fake_hub import FakeHub
from tests.fakes.fake_pynvml import FakeGpu, FakeNvml
from tests.fakes.memory_keyring import MemoryKeyring

REPO = "acme/Synthetic-GGUF"
F16 = "synthetic.F16.gguf"
Q8 = "synthetic.Q8_0.gguf"
WAIT_MS = 20_000
CONTEXT = ContextSettings.for_load(ModelSettings().n_ctx)  # what the GPU panel plans a default load with


@pytest.fixture
def models(tmp_path: Path) -> dict[str, Path]:
    spec = SyntheticModel(n_layers=8, n_embd=512, n_ff=2048)
    return {
        F16: write_synthetic_model(tmp_path / F16, spec),
        Q8: write_synthetic_model(
            tmp_path / Q8, SyntheticModel(**{**spec.__dict__, "weight_type": GGMLQuantizationType.Q8_0})
        ),
    }


def gpu_panel_planner(path: Path) -> MemoryPlanner:
    """The planner the GPU panel builds for this file on one GPU, before any calibration."""
    return MemoryPlanner(read_gguf_info(path), DEFAULT_RUNTIME_OVERHEAD)


def one_gpu_with_free(monkeypatch: pytest.MonkeyPatch, free: int) -> None:
    fake_pynvml.install(
        monkeypatch, FakeNvml(gpus=[FakeGpu(total=8 * GIB, reserved=0, processes={4242: 8 * GIB - free})])
    )
    monkeypatch.setattr("app.core.memory.hardware.llama_offload_support", lambda: OffloadSupport(True))


@pytest.fixture
def dialog(qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[ModelManagerDialog]:
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown()


def open_repository(dialog: ModelManagerDialog, qtbot: QtBot) -> dict[str, int]:
    with qtbot.waitSignal(dialog.discover.listingShown, timeout=WAIT_MS):
        dialog.discover.open_repository(REPO)
    variants = dialog.discover.variants
    return {variants.item(row, 0).data(Qt.ItemDataRole.UserRole): row for row in range(variants.rowCount())}


def test_each_hint_is_the_planners_verdict_and_the_star_goes_to_the_one_fully_on_the_gpu(
    fake_hub: FakeHub,
    models: dict[str, Path],
    dialog: ModelManagerDialog,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_hub.add_repo(REPO, dict(models))
    q8, f16 = gpu_panel_planner(models[Q8]), gpu_panel_planner(models[F16])
    free = q8.plan(-1, CONTEXT).gpu_total + DEFAULT_SAFETY_MARGIN  # room for all of Q8_0, not for all of F16
    one_gpu_with_free(monkeypatch, free)
    expected_f16_layers = f16.recommend(CONTEXT, free)
    assert q8.recommend(CONTEXT, free) == q8.max_gpu_layers and 0 < expected_f16_layers < f16.max_gpu_layers

    rows = open_repository(dialog, qtbot)
    discover = dialog.discover
    fit_column = {key: discover.variants.item(row, 3) for key, row in rows.items()}
    assert fit_column[Q8].text() == "fully on GPU"
    assert fit_column[F16].text() == "partly offloaded"
    assert f"{expected_f16_layers} of {f16.max_gpu_layers} layers" in fit_column[F16].toolTip()
    hints = discover.assessment.hints  # type: ignore[union-attr]
    assert hints[Q8].gpu_bytes == q8.plan(-1, CONTEXT).gpu_total  # what the GPU panel's readout says
    assert hints[F16].gpu_bytes == f16.plan(expected_f16_layers, CONTEXT).gpu_total
    assert discover.recommended == Q8 and discover.variants.item(rows[Q8], 0).text() == "★ " + Q8
    assert "estimate" not in fit_column[Q8].text() + fit_column[Q8].toolTip().lower()


def test_a_header_the_hub_cannot_serve_is_shown_as_an_estimate_from_the_file_size(
    fake_hub: FakeHub,
    models: dict[str, Path],
    dialog: ModelManagerDialog,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_hub.add_repo(
        REPO, {Q8: models[Q8], F16: b"GGUF" + bytes([3, 0, 0, 0]) + (2**60).to_bytes(8, "little") * 2 + bytes(64)}
    )
    one_gpu_with_free(monkeypatch, 4 * GIB)
    rows = open_repository(dialog, qtbot)
    variants = dialog.discover.variants
    hostile = variants.item(rows[F16], 3)
    assert hostile.text().endswith("(estimate)") and "Estimated from the file size" in hostile.toolTip()
    readable = variants.item(rows[Q8], 3)
    assert readable.text() == "fully on GPU" and "Estimated" not in readable.toolTip()


def test_headers_are_read_with_range_requests_not_downloads(
    fake_hub: FakeHub,
    models: dict[str, Path],
    dialog: ModelManagerDialog,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_hub.add_repo(REPO, dict(models))
    one_gpu_with_free(monkeypatch, 4 * GIB)
    open_repository(dialog, qtbot)
    for name, path in models.items():
        assert [request.range for request in fake_hub.file_requests(name)] == [
            f"bytes=0-{remote_header.FIRST_RANGE - 1}"
        ]
        assert fake_hub.served(REPO, name) <= remote_header.FIRST_RANGE < path.stat().st_size
