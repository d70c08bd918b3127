"""The smaller-variant glue: a fallback to fewer GPU layers and VRAM taken while loaded are planned off the GUI
thread, then offered (or switched to, with the setting) with what the user is told."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType
from PySide6.QtCore import QObject, Signal
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.memory.fallback import FallbackResult, FallbackStep
from app.core.memory.fit import Machine
from app.core.memory.planner import DEFAULT_SAFETY_MARGIN, ContextSettings, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.types.load import LoadConfig
from app.ui.monitor.smaller_variants import SmallerVariants, describe

MIB = 1024 * 1024
REPO = ("someone", "Synthetic-Llama-GGUF")


class FakeLlmWorker(QObject):
    loadOutOfMemory = Signal(object)
    loadFellBack = Signal(object)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path.joinpath("models", *REPO)
    folder.mkdir(parents=True)
    write_synthetic_model(folder / "synthetic-llama.F16.gguf", SyntheticModel())
    write_synthetic_model(folder / "synthetic-llama.Q8_0.gguf", SyntheticModel(weight_type=GGMLQuantizationType.Q8_0))
    return tmp_path / "models"


def model(library: Path, quant: str) -> Path:
    return library.joinpath(*REPO, f"synthetic-llama.{quant}.gguf")


def between_on_the_gpu(library: Path) -> Machine:
    """VRAM for every layer of the Q8_0 file, not of the F16 one."""
    context = ContextSettings.for_load(1024)
    small, large = (
        MemoryPlanner(read_gguf_info(model(library, q))).plan(-1, context).gpu_total for q in ("Q8_0", "F16")
    )
    return Machine(free_vram=(small + large) // 2 + DEFAULT_SAFETY_MARGIN, free_ram=64 * 1024 * MIB, gpus=1)


class Rig:
    def __init__(self, library: Path, automatic: bool) -> None:
        self.worker = FakeLlmWorker()
        machine = between_on_the_gpu(library)
        self.variants = SmallerVariants(
            self.worker,  # type: ignore[arg-type]
            lambda: automatic,
            machine=lambda: machine,
            models_dir=lambda: library,
        )


@pytest.fixture
def rig(library: Path) -> Iterator[Rig]:
    made = Rig(library, automatic=False)
    yield made
    made.variants.shutdown()


def test_a_fallback_to_fewer_gpu_layers_offers_the_variant_that_takes_them_all(
    rig: Rig, library: Path, qtbot: QtBot
) -> None:
    asked = LoadConfig(model(library, "F16"), n_ctx=1024, n_gpu_layers=-1)
    result = FallbackResult(asked, replace(asked, n_gpu_layers=2), None, [FallbackStep(5, "out of memory", 2)])
    with qtbot.waitSignal(rig.variants.offered, timeout=10_000) as offered:
        rig.worker.loadFellBack.emit(result)
    switch, offer = offered.args
    assert switch == LoadConfig(model(library, "Q8_0"), n_ctx=1024, n_gpu_layers=-1)
    text = describe(offer)
    assert "ran out of GPU memory and loaded with 2 GPU layers" in text
    assert "synthetic-llama.Q8_0.gguf (Q8_0) is in the library and fits as asked (fits fully on the GPU" in text


def test_vram_taken_while_loaded_is_planned_and_offered_too(rig: Rig, library: Path, qtbot: QtBot) -> None:
    with qtbot.waitSignal(rig.variants.offered, timeout=10_000) as offered:
        rig.variants.vram_taken(LoadConfig(model(library, "F16"), n_ctx=1024, n_gpu_layers=-1))
    assert offered.args[0] is not None and offered.args[0].model_path == model(library, "Q8_0")


def test_with_the_setting_on_the_variant_is_switched_to_and_said_so(library: Path, qtbot: QtBot) -> None:
    automatic = Rig(library, automatic=True)
    try:
        with qtbot.waitSignal(automatic.variants.switchRequested, timeout=10_000) as switched:
            automatic.worker.loadOutOfMemory.emit(LoadConfig(model(library, "F16"), n_ctx=1024, n_gpu_layers=-1))
        config, offer = switched.args
        assert config.model_path == model(library, "Q8_0")
        assert "Loading synthetic-llama.Q8_0.gguf (Q8_0) from the library instead" in describe(offer, switching=True)
    finally:
        automatic.variants.shutdown()
