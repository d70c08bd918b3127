"""The one fit model: the planner's verdict per variant, the estimate when no header is known, the suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.memory.fit import (
    ESTIMATE_NOTE,
    RAM_RESERVE,
    Candidate,
    Fit,
    Machine,
    assess,
    fit_hint,
    recommend,
)
from app.core.memory.hardware import HardwareMonitor, OffloadSupport
from app.core.memory.planner import (
    DEFAULT_RUNTIME_OVERHEAD,
    DEFAULT_SAFETY_MARGIN,
    GIB,
    ContextSettings,
    MemoryPlanner,
)
from app.core.models.gguf_info import GgufInfo, read_gguf_info
from tests.fakes.fake_pynvml import FakeGpu, FakeNvml

CONTEXT = ContextSettings.for_load(4096)
PLENTY_OF_RAM = 64 * GIB


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> GgufInfo:
    path = tmp_path_factory.mktemp("fit") / "m.gguf"
    return read_gguf_info(write_synthetic_model(path, SyntheticModel(n_layers=6, n_embd=512, n_ff=1024)))


def planner(info: GgufInfo) -> MemoryPlanner:
    return MemoryPlanner(info, DEFAULT_RUNTIME_OVERHEAD)


def vram_for(info: GgufInfo, layers: int) -> int:
    """Free VRAM in which the planner recommends exactly `layers` layers."""
    return planner(info).plan(layers, CONTEXT).gpu_total + DEFAULT_SAFETY_MARGIN


def test_all_layers_fitting_with_the_margin_is_fully_on_the_gpu(model: GgufInfo) -> None:
    every = planner(model).max_gpu_layers
    hint = fit_hint(
        Candidate("m", "F16", model.file_size, model), Machine(vram_for(model, every), PLENTY_OF_RAM), CONTEXT
    )
    assert hint.fit is Fit.GPU and not hint.estimated
    assert hint.gpu_layers == every
    assert hint.gpu_bytes == planner(model).plan(every, CONTEXT).gpu_total


def test_some_layers_fitting_is_partly_offloaded_with_the_layer_count_the_gpu_panel_recommends(model: GgufInfo) -> None:
    free = vram_for(model, 3)
    hint = fit_hint(Candidate("m", "F16", model.file_size, model), Machine(free, PLENTY_OF_RAM), CONTEXT)
    assert hint.fit is Fit.PARTIAL
    assert hint.gpu_layers == planner(model).recommend(CONTEXT, free) == 3
    assert "3 of 7 layers" in hint.text


def test_no_gpu_or_no_room_on_it_runs_from_ram(model: GgufInfo) -> None:
    candidate = Candidate("m", "F16", model.file_size, model)
    no_gpu = fit_hint(candidate, Machine(None, PLENTY_OF_RAM), CONTEXT)
    assert no_gpu.fit is Fit.RAM and no_gpu.gpu_bytes == 0 and "no GPU" in no_gpu.text
    assert no_gpu.ram_bytes == planner(model).plan(0, CONTEXT, gpu=False).cpu_total
    full_gpu = fit_hint(candidate, Machine(DEFAULT_RUNTIME_OVERHEAD, PLENTY_OF_RAM), CONTEXT)
    assert full_gpu.fit is Fit.RAM and "not enough free VRAM" in full_gpu.text


def test_too_little_ram_for_the_cpu_part_does_not_fit(model: GgufInfo) -> None:
    cpu_total = planner(model).plan(0, CONTEXT, gpu=False).cpu_total
    hint = fit_hint(Candidate("m", "F16", model.file_size, model), Machine(None, RAM_RESERVE + cpu_total - 1), CONTEXT)
    assert hint.fit is Fit.NO_FIT and "does not fit" in hint.text


def test_the_verdict_follows_the_hardware_snapshot_of_a_gpu(model: GgufInfo) -> None:
    fake = FakeNvml(gpus=[FakeGpu(total=8 * GIB, reserved=0)])
    monitor = HardwareMonitor(nvml=fake.module, offload=OffloadSupport(True))
    snapshot = monitor.snapshot()
    monitor.close()
    machine = Machine.from_snapshot(snapshot)
    assert machine.free_vram == 8 * GIB and machine.gpus == 1
    assert fit_hint(Candidate("m", "F16", model.file_size, model), machine, CONTEXT).fit is Fit.GPU
    no_offload = HardwareMonitor(nvml=fake.module, offload=OffloadSupport(False))
    assert Machine.from_snapshot(no_offload.snapshot()).free_vram is None
    no_offload.close()


def test_without_a_header_the_hint_is_an_estimate_from_the_file_size_and_says_so() -> None:
    hint = fit_hint(Candidate("m", "Q4_K_M", 4 * GIB), Machine(12 * GIB, 16 * GIB), CONTEXT)
    assert hint.fit is Fit.GPU and hint.estimated and ESTIMATE_NOTE in hint.text
    partial = fit_hint(Candidate("m", "Q4_K_M", 4 * GIB), Machine(3 * GIB, 16 * GIB), CONTEXT)
    assert partial.fit is Fit.PARTIAL and "%" in partial.text
    assert fit_hint(Candidate("m", "Q4_K_M", 4 * GIB), Machine(None, 16 * GIB), CONTEXT).fit is Fit.RAM
    assert fit_hint(Candidate("m", "Q4_K_M", 4 * GIB), Machine(None, 3 * GIB), CONTEXT).fit is Fit.NO_FIT


VARIANTS = [
    Candidate("F16", "F16", int(14.5 * GIB)),
    Candidate("Q8_0", "Q8_0", int(7.7 * GIB)),
    Candidate("Q6_K", "Q6_K", int(5.9 * GIB)),
    Candidate("Q5_K_M", "Q5_K_M", int(5.1 * GIB)),
    Candidate("Q4_K_M", "Q4_K_M", int(4.4 * GIB)),
    Candidate("Q2_K", "Q2_K", int(2.7 * GIB)),
]


def test_recommendation_is_the_best_quality_that_runs_fully_on_the_gpu() -> None:
    assert recommend(VARIANTS, Machine(8 * GIB, 32 * GIB), CONTEXT) == "Q6_K"
    assert recommend(VARIANTS, Machine(24 * GIB, 32 * GIB), CONTEXT) == "Q8_0"  # never F16


def test_recommendation_without_a_gpu_stays_at_or_below_q5_k_m() -> None:
    assert recommend(VARIANTS, Machine(None, 64 * GIB), CONTEXT) == "Q5_K_M"
    assert recommend(VARIANTS, Machine(None, 7 * GIB), CONTEXT) == "Q4_K_M"


def test_recommendation_offers_full_precision_only_when_the_repository_has_nothing_smaller() -> None:
    full = [Candidate("F32", "F32", 8 * GIB), Candidate("F16", "F16", 4 * GIB)]
    assert recommend(full, Machine(None, 64 * GIB), CONTEXT) == "F16"


def test_recommendation_falls_back_to_heavy_quantization_only_when_nothing_else_fits() -> None:
    assert recommend(VARIANTS, Machine(None, 5 * GIB), CONTEXT) == "Q2_K"
    assert recommend(VARIANTS, Machine(None, 2 * GIB), CONTEXT) is None


def test_the_suggestion_is_planned_from_headers_the_same_way_as_each_hint(tmp_path: Path) -> None:
    """Each hint and the starred suggestion come from the same plans: Q8_0 on the GPU beats F16."""
    small = read_gguf_info(
        write_synthetic_model(
            tmp_path / "q8.gguf", SyntheticModel(n_layers=6, n_embd=512, weight_type=GGMLQuantizationType.Q8_0)
        )
    )
    big = read_gguf_info(write_synthetic_model(tmp_path / "f16.gguf", SyntheticModel(n_layers=6, n_embd=512)))
    candidates = [Candidate("f16", "F16", big.file_size, big), Candidate("q8", "Q8_0", small.file_size, small)]
    roomy = assess(candidates, Machine(vram_for(big, 7), PLENTY_OF_RAM), CONTEXT)
    assert roomy.hints["q8"].fit is Fit.GPU and roomy.recommended == "q8"  # F16 is above the GPU quality cap
    tight = assess(candidates, Machine(vram_for(small, 7), PLENTY_OF_RAM), CONTEXT)
    assert tight.hints["q8"].fit is Fit.GPU and tight.hints["f16"].fit is Fit.PARTIAL
    assert tight.recommended == "q8"
