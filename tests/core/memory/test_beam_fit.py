"""A beam width whose KV cache does not fit is refused with the numbers, before its context is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.inference import beam_search
from app.core.inference.beam_search import BeamSearcher, BeamSettings, beam_context_cells
from app.core.inference.engine import Engine
from app.core.memory.beam_fit import BeamWidthDoesNotFit, beam_admission, beam_memory
from app.core.memory.fit import RAM_RESERVE, Machine
from app.core.memory.planner import GIB, ContextSettings, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.types.messages import ChatMessage


@pytest.fixture
def planner(starter_model: Path) -> MemoryPlanner:
    return MemoryPlanner(read_gguf_info(starter_model))


def test_the_beams_kv_cache_grows_with_the_width(planner: MemoryPlanner) -> None:
    narrow = beam_memory(planner, 0, beam_context_cells(100, 2, 256))
    wide = beam_memory(planner, 0, beam_context_cells(100, 8, 256))
    assert narrow.gpu_bytes == wide.gpu_bytes == 0  # CPU only: all of it in RAM
    assert wide.ram_bytes > narrow.ram_bytes
    assert wide.ram_bytes >= planner.kv_bytes(ContextSettings(n_ctx=100 + 8 * 256))


def test_a_width_that_does_not_fit_is_refused_before_its_context_is_made(
    engine: Engine, planner: MemoryPlanner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_context(**_kwargs: object) -> None:
        raise AssertionError("the beam context was made although the width does not fit")

    monkeypatch.setattr(beam_search, "LlamaContext", no_context)
    machine = Machine(free_vram=None, free_ram=RAM_RESERVE + 1024 * 1024, gpus=0)  # 1 MiB to spare
    prompt = engine.prompt_tokens([ChatMessage("user", "Hello")])
    with pytest.raises(BeamWidthDoesNotFit, match=r"Beam width 8 needs .* of RAM .* but 1\.0 MiB is free") as caught:
        BeamSearcher(engine.llama).search(
            prompt, BeamSettings(width=8, max_new_tokens=512), admit=beam_admission(planner, machine, 0, 8)
        )
    assert caught.value.needed > caught.value.available


def test_a_width_that_fits_runs(engine: Engine, planner: MemoryPlanner) -> None:
    machine = Machine(free_vram=None, free_ram=RAM_RESERVE + 4 * GIB, gpus=0)
    prompt = engine.prompt_tokens([ChatMessage("user", "Hello")])
    result = BeamSearcher(engine.llama).search(
        prompt, BeamSettings(width=2, max_new_tokens=4), admit=beam_admission(planner, machine, 0, 2)
    )
    assert result.hypotheses


def test_the_vram_part_is_checked_when_layers_are_offloaded(planner: MemoryPlanner) -> None:
    machine = Machine(free_vram=1024, free_ram=RAM_RESERVE + 4 * GIB, gpus=1)
    admit = beam_admission(planner, machine, -1, 4)
    with pytest.raises(BeamWidthDoesNotFit, match="of VRAM"):
        admit(beam_context_cells(50, 4, 128))
