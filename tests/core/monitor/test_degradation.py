"""Graceful degradation: a model that does not fit gets its more heavily quantized copy offered, as the planner judges.

The library holds two quantizations of one small synthetic model (F16 and Q8_0, real GGUF
files llama.cpp loads) and one unrelated model; the machine has just enough memory for the
Q8_0 plan and not for the F16 one, measured with the same planner.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.memory.fit import RAM_RESERVE, Fit, Machine
from app.core.memory.planner import DEFAULT_SAFETY_MARGIN, ContextSettings, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.models.library import installed_models
from app.core.monitor.degradation import (
    DOWNLOAD_LADDER,
    LoadTrouble,
    base_name,
    offer_after_load,
    offer_smaller_variant,
    requantized,
    same_model,
    switch_config,
    variants,
)
from app.core.types.load import LoadConfig

CONTEXT = ContextSettings.for_load(1024)
MIB = 1024 * 1024
REPO = ("someone", "Synthetic-Llama-GGUF")


@pytest.fixture
def library(tmp_path: Path) -> Path:
    models = tmp_path / "models"
    folder = models.joinpath(*REPO)
    folder.mkdir(parents=True)
    write_synthetic_model(folder / "synthetic-llama.F16.gguf", SyntheticModel(weight_type=GGMLQuantizationType.F16))
    write_synthetic_model(folder / "synthetic-llama.Q8_0.gguf", SyntheticModel(weight_type=GGMLQuantizationType.Q8_0))
    other = models / "imported"
    other.mkdir()
    write_synthetic_model(
        other / "other-model.Q8_0.gguf", SyntheticModel(name="other", weight_type=GGMLQuantizationType.Q8_0)
    )
    return models


def f16(library: Path) -> Path:
    return library.joinpath(*REPO, "synthetic-llama.F16.gguf")


def q8(library: Path) -> Path:
    return library.joinpath(*REPO, "synthetic-llama.Q8_0.gguf")


def plan(path: Path, n_gpu_layers: int, gpu: bool = True) -> tuple[int, int]:
    """(VRAM, RAM) the planner says a load takes."""
    memory = MemoryPlanner(read_gguf_info(path)).plan(n_gpu_layers, CONTEXT, gpu=gpu)
    return memory.gpu_total, memory.cpu_total


def between_on_the_cpu(library: Path) -> Machine:
    """RAM enough for the Q8_0 plan on the CPU, not for the F16 one."""
    (_, small), (_, large) = plan(q8(library), 0, gpu=False), plan(f16(library), 0, gpu=False)
    assert small < large
    return Machine(free_vram=None, free_ram=RAM_RESERVE + (small + large) // 2, gpus=0)


def between_on_the_gpu(library: Path) -> Machine:
    """VRAM enough for every layer of the Q8_0 file, not of the F16 one; plenty of RAM."""
    (small, _), (large, _) = plan(q8(library), -1), plan(f16(library), -1)
    assert small < large
    return Machine(free_vram=(small + large) // 2 + DEFAULT_SAFETY_MARGIN, free_ram=64 * 1024 * MIB, gpus=1)


def test_two_quantizations_of_one_model_are_variants_and_another_model_is_not(library: Path) -> None:
    found = variants(f16(library), installed_models(library))
    assert [model.path.name for model, _info in found] == ["synthetic-llama.Q8_0.gguf"]
    assert base_name("synthetic-llama.F16.gguf") == base_name("Synthetic_Llama-Q8_0.gguf") == "synthetic-llama"
    assert not same_model(read_gguf_info(f16(library)), read_gguf_info(library / "imported" / "other-model.Q8_0.gguf"))


def test_on_the_cpu_the_smaller_installed_quantization_is_offered_when_the_model_does_not_fit(library: Path) -> None:
    offer = offer_smaller_variant(
        f16(library), installed_models(library), between_on_the_cpu(library), CONTEXT, n_gpu_layers=0
    )

    assert offer is not None
    assert offer.current.fit is Fit.NO_FIT
    assert offer.local is not None and offer.local.model.path == q8(library) and offer.local.quant == "Q8_0"
    assert offer.local.hint.fit is Fit.RAM and offer.local_fits_as_asked
    assert offer.download is None  # the library already has what fits
    assert "synthetic-llama.F16.gguf does not fit as asked" in offer.message
    assert "synthetic-llama.Q8_0.gguf (Q8_0) is in the library and fits as asked: runs from RAM only" in offer.message


def test_on_the_gpu_the_variant_that_takes_every_layer_is_offered(library: Path) -> None:
    machine = between_on_the_gpu(library)
    offer = offer_smaller_variant(f16(library), installed_models(library), machine, CONTEXT, n_gpu_layers=-1)

    assert offer is not None and offer.current.fit is Fit.PARTIAL
    assert offer.local is not None and offer.local.hint.fit is Fit.GPU


def test_a_model_that_fits_as_asked_gets_no_offer(library: Path) -> None:
    plenty = Machine(free_vram=None, free_ram=64 * 1024 * MIB, gpus=0)
    assert offer_smaller_variant(f16(library), installed_models(library), plenty, CONTEXT, 0) is None


def test_a_bigger_file_is_never_offered_only_a_smaller_quantization_to_download(library: Path) -> None:
    smallest = requantized(read_gguf_info(q8(library)), DOWNLOAD_LADDER["Q2_K"])
    q2_ram = MemoryPlanner(smallest).plan(0, CONTEXT, gpu=False).cpu_total
    (_, q8_ram) = plan(q8(library), 0, gpu=False)
    machine = Machine(free_vram=None, free_ram=RAM_RESERVE + (q2_ram + q8_ram) // 2, gpus=0)

    offer = offer_smaller_variant(q8(library), installed_models(library), machine, CONTEXT, 0, models_dir=library)

    assert offer is not None and offer.local is None  # the F16 file is bigger: no help
    assert offer.download is not None and offer.download.quant in ("Q6_K", "Q5_K_M", "Q4_K_M", "Q3_K_M", "Q2_K")
    assert offer.download.hint.fit is Fit.RAM


def test_without_a_smaller_file_installed_the_quantization_to_download_is_named_with_its_plan(library: Path) -> None:
    machine = between_on_the_cpu(library)
    q8(library).unlink()

    offer = offer_smaller_variant(f16(library), installed_models(library), machine, CONTEXT, 0, models_dir=library)

    assert offer is not None and offer.local is None and offer.download is not None
    assert offer.download.quant == "Q8_0" and offer.download.repo_id == "someone/Synthetic-Llama-GGUF"
    assert offer.download.hint.estimated and offer.download.hint.fit is Fit.RAM
    assert "planned from this model's header at Q8_0" in offer.download.hint.text
    assert "A Q8_0 copy from someone/Synthetic-Llama-GGUF would fit as asked" in offer.message


def test_a_requantized_header_is_what_the_real_smaller_file_plans_to(library: Path) -> None:
    estimate = requantized(read_gguf_info(f16(library)), DOWNLOAD_LADDER["Q8_0"])
    real = read_gguf_info(q8(library))
    assert estimate.tensor_bytes == real.tensor_bytes
    assert MemoryPlanner(estimate).plan(0, CONTEXT).cpu_total == MemoryPlanner(real).plan(0, CONTEXT).cpu_total
    assert read_gguf_info(f16(library)).tensor_bytes > estimate.tensor_bytes  # the original header is untouched


def test_a_load_that_ran_out_of_memory_gets_its_variant_even_where_the_plan_said_it_fits(library: Path) -> None:
    plenty = Machine(free_vram=None, free_ram=64 * 1024 * MIB, gpus=0)
    config = LoadConfig(f16(library), n_ctx=1024, n_gpu_layers=0)
    assert offer_after_load(config, LoadTrouble.VRAM_TAKEN, installed_models(library), plenty) is None  # the plan
    offer = offer_after_load(config, LoadTrouble.OUT_OF_MEMORY, installed_models(library), plenty)  # what happened

    assert offer is not None and offer.current.fit is Fit.NO_FIT and "ran out of memory" in offer.current.text
    assert offer.local is not None and offer.local.model.path == q8(library) and offer.local_fits_as_asked
    assert switch_config(config, offer) == LoadConfig(q8(library), n_ctx=1024, n_gpu_layers=0)


def test_a_load_that_fell_back_to_fewer_layers_gets_the_variant_that_takes_them_all(library: Path) -> None:
    machine = between_on_the_gpu(library)
    config = LoadConfig(f16(library), n_ctx=1024, n_gpu_layers=-1)
    offer = offer_after_load(config, LoadTrouble.FELL_BACK, installed_models(library), machine, loaded_layers=2)

    assert offer is not None and offer.current.gpu_layers <= 2
    assert offer.local is not None and offer.local.hint.fit is Fit.GPU
    switched = switch_config(config, offer)
    assert switched is not None and switched.model_path == q8(library) and switched.n_gpu_layers == -1  # all, as asked


def test_vram_taken_while_loaded_is_judged_by_the_plan_on_what_is_free_now(library: Path) -> None:
    config = LoadConfig(f16(library), n_ctx=1024, n_gpu_layers=-1)
    offer = offer_after_load(config, LoadTrouble.VRAM_TAKEN, installed_models(library), between_on_the_gpu(library))
    assert offer is not None and offer.local is not None and offer.local.model.path == q8(library)


def test_only_a_download_to_offer_has_no_load_to_switch_to(library: Path) -> None:
    machine = between_on_the_cpu(library)
    q8(library).unlink()
    config = LoadConfig(f16(library), n_ctx=1024, n_gpu_layers=0)
    offer = offer_after_load(config, LoadTrouble.OUT_OF_MEMORY, installed_models(library), machine, library)
    assert offer is not None and offer.download is not None and switch_config(config, offer) is None
