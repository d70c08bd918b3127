"""Does a beam search fit beside the loaded model? Checked before its context is made.

A beam search gets a context of its own (app/core/inference/beam_search.py) on the weights
already loaded, so what it adds is that context's KV cache (`beam_context_cells`: the prompt
once, plus width x new tokens) and its compute buffer, placed like the chat context's: with
the layers on the GPU when n_gpu_layers offloads them (llama.cpp's offload_kqv default), in
RAM otherwise. The planner sizes both; a width that does not fit is refused with the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.inference.beam_search import Admission, BeamSearchError
from app.core.memory.fit import Machine
from app.core.memory.planner import DEFAULT_UBATCH, ContextSettings, MemoryPlanner
from app.core.support.formatting import fill, format_bytes
from app.core.support.user_text import N_


class BeamWidthDoesNotFit(BeamSearchError):
    """The beams' KV cache and compute buffer need more memory than is free."""

    def __init__(self, message: str, needed: int = 0, available: int = 0) -> None:
        super().__init__(message)
        self.needed = needed
        self.available = available


@dataclass(frozen=True)
class BeamMemory:
    cells: int
    gpu_bytes: int  # the beam context's KV and compute on the GPU
    ram_bytes: int  # ... and in RAM


def beam_memory(planner: MemoryPlanner, n_gpu_layers: int, cells: int, n_ubatch: int = DEFAULT_UBATCH) -> BeamMemory:
    """What a beam context of `cells` cells adds to a model loaded with `n_gpu_layers`."""
    context = ContextSettings(n_ctx=cells, n_ubatch=max(1, min(n_ubatch, cells)))
    plan = planner.plan(n_gpu_layers, context, gpu=n_gpu_layers != 0)
    return BeamMemory(cells, plan.gpu_kv + plan.gpu_compute, plan.cpu_kv + plan.cpu_compute)


def beam_admission(planner: MemoryPlanner, machine: Machine, n_gpu_layers: int, width: int) -> Admission:
    """The check BeamSearcher.search runs with the context size: raises BeamWidthDoesNotFit."""

    def admit(cells: int) -> None:
        memory = beam_memory(planner, n_gpu_layers, cells)
        free_vram = machine.free_vram or 0
        if memory.gpu_bytes > free_vram and memory.gpu_bytes > 0:
            raise BeamWidthDoesNotFit(
                fill(
                    N_(
                        "Beam width {width} needs {needed} of VRAM for its KV cache ({cells} cells) and compute"
                        " buffer, but {free} is free. Use a narrower width or fewer new tokens."
                    ),
                    width=width,
                    needed=format_bytes(memory.gpu_bytes),
                    cells=cells,
                    free=format_bytes(free_vram),
                ),
                memory.gpu_bytes,
                free_vram,
            )
        if memory.ram_bytes > machine.usable_ram:
            raise BeamWidthDoesNotFit(
                fill(
                    N_(
                        "Beam width {width} needs {needed} of RAM for its KV cache ({cells} cells) and compute"
                        " buffer, but {free} is free. Use a narrower width or fewer new tokens."
                    ),
                    width=width,
                    needed=format_bytes(memory.ram_bytes),
                    cells=cells,
                    free=format_bytes(machine.usable_ram),
                ),
                memory.ram_bytes,
                machine.usable_ram,
            )

    return admit
