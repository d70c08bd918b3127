"""The recommended models: a curated list of real files, sized by the fit code for a given machine."""

from __future__ import annotations

from pathlib import Path

from app.core.memory.fit import RAM_RESERVE, Fit, Machine, estimated_need
from app.core.memory.planner import DEFAULT_RUNTIME_OVERHEAD, DEFAULT_SAFETY_MARGIN, GIB, ContextSettings
from app.core.memory.recommended_fit import size_recommended
from app.core.models.names import model_destination
from app.core.models.quant import parse_quant
from app.core.models.recommended import RECOMMENDED_MODELS

CONTEXT = ContextSettings.for_load(4096)


def test_each_recommendation_is_one_gguf_file_of_a_hub_repository_named_with_its_quantization(tmp_path: Path) -> None:
    assert len(RECOMMENDED_MODELS) >= 6
    assert len({(m.repo_id, m.filename) for m in RECOMMENDED_MODELS}) == len(RECOMMENDED_MODELS)
    for model in RECOMMENDED_MODELS:
        owner, name = model.repo_id.split("/")
        assert owner and name.endswith("-GGUF")
        assert model.filename.endswith(".gguf") and "/" not in model.filename
        assert parse_quant(model.filename) == model.quant
        assert model.size_bytes > 100 * 1000 * 1000 and model.summary
        model_destination(tmp_path, model.repo_id, model.filename)  # a download of it gets a safe place


def test_the_list_is_of_the_families_people_run_now_marked_for_thinking_tools_and_vision() -> None:
    names = [model.name for model in RECOMMENDED_MODELS]
    for family in ("Qwen3", "Gemma 3", "gpt-oss", "Llama 3.", "Mistral Small 3.", "Phi-4", "SmolLM3"):
        assert any(name.startswith(family) for name in names), family
    assert not any(old in name for name in names for old in ("Qwen2.5", "Gemma 2", "Phi-3"))  # 2024's
    by_name = {model.name: model for model in RECOMMENDED_MODELS}
    assert all(m.thinking and m.tools for m in RECOMMENDED_MODELS if m.name.startswith(("Qwen3", "gpt-oss")))
    assert by_name["Gemma 3 4B it"].vision and not by_name["Gemma 3 1B it"].vision  # the 1B reads text only
    assert by_name["Mistral Small 3.2 24B Instruct"].vision and by_name["Mistral Small 3.2 24B Instruct"].tools
    sizes = [model.size_bytes for model in RECOMMENDED_MODELS]
    assert sizes == sorted(sizes), "smallest first: the first one a new user sees fits the smallest machine"


def test_on_a_machine_without_gpu_the_small_ones_run_from_ram_and_the_8b_and_larger_are_too_large() -> None:
    machine = Machine(free_vram=None, free_ram=4 * GIB)  # 3 GiB usable after the reserve
    sized = size_recommended(machine, CONTEXT)
    usable = 4 * GIB - RAM_RESERVE
    for item in sized:
        expected = Fit.RAM if estimated_need(item.model.size_bytes) <= usable else Fit.NO_FIT
        assert item.hint.fit is expected, item.model.name
    fits = [item.hint.fit for item in sized]
    assert fits == sorted(fits, key=[Fit.RAM, Fit.NO_FIT].index)  # the ones that fit first
    too_large = {item.model.parameters for item in sized if not item.fits}
    assert {"8B", "12B", "14B", "21B", "24B"} <= too_large
    assert {"0.6B", "1B", "1.7B"}.isdisjoint(too_large)


def test_the_ones_that_fit_come_first_gpu_then_partly_then_too_large_whatever_the_order_of_the_list() -> None:
    free_vram = 2 * GIB  # 1.3 GiB left after the CUDA overhead and the margin
    machine = Machine(free_vram=free_vram, free_ram=3 * GIB)
    usable_vram = free_vram - DEFAULT_RUNTIME_OVERHEAD - DEFAULT_SAFETY_MARGIN
    largest_first = tuple(reversed(RECOMMENDED_MODELS))
    sized = size_recommended(machine, CONTEXT, largest_first)

    def expected(size: int) -> Fit:
        need = estimated_need(size)
        if need <= usable_vram:
            return Fit.GPU
        return Fit.PARTIAL if need - usable_vram <= 2 * GIB else Fit.NO_FIT

    verdicts = [(item.model.name, item.hint.fit) for item in sized]
    by_fit = {fit: [m.name for m in largest_first if expected(m.size_bytes) is fit] for fit in Fit}
    assert by_fit[Fit.GPU] and by_fit[Fit.PARTIAL] and by_fit[Fit.NO_FIT]  # the machine splits the list three ways
    assert verdicts == [
        *[(name, Fit.GPU) for name in by_fit[Fit.GPU]],
        *[(name, Fit.PARTIAL) for name in by_fit[Fit.PARTIAL]],
        *[(name, Fit.NO_FIT) for name in by_fit[Fit.NO_FIT]],
    ]
    assert all(item.hint.estimated for item in sized)  # said so: from the file size, no header was read
