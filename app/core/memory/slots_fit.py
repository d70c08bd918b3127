"""How many parallel slots `glassbox serve` opens when not told: what the memory plan allows, at most 4.

The slots get a context of their own beside the chat context (app/core/inference/slots.py),
the load's n_ctx split across them as llama-server splits it, so what they add is one more
KV cache of n_ctx cells and a compute buffer, whatever their number, and one logits row per
slot: the planner's plan with `parallel` slots less its plan without (planner.py). Asked
after the load, so the memory free now is what the slots may take. They are opened when
they fit there, as many as leave each slot `MIN_SLOT_CTX` tokens; else the server writes one
reply at a time, as before.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from app.core.memory.fit import Machine, machine_now
from app.core.memory.planner import ContextSettings, MemoryPlanner
from app.core.models.gguf_info import GgufInfoError
from app.core.types.load import LoadConfig

log = logging.getLogger(__name__)

MAX_DEFAULT_SLOTS = 4
MIN_SLOT_CTX = 1024  # tokens each slot holds at least (llama-server's 4096 split in 4)


@dataclass(frozen=True)
class SlotsMemory:
    """What `count` slots add to a loaded model: bytes on the GPU and in RAM."""

    count: int
    gpu_bytes: int
    ram_bytes: int


def slots_memory(planner: MemoryPlanner, n_gpu_layers: int, context: ContextSettings, count: int) -> SlotsMemory:
    """The slots' context for a model loaded with `n_gpu_layers` and `context` (count > 1)."""
    gpu = n_gpu_layers != 0
    alone = planner.plan(n_gpu_layers, replace(context, parallel=1), gpu=gpu)
    served = planner.plan(n_gpu_layers, replace(context, parallel=count), gpu=gpu)
    return SlotsMemory(count, served.gpu_total - alone.gpu_total, served.cpu_total - alone.cpu_total)


def default_parallel(planner: MemoryPlanner, machine: Machine, n_gpu_layers: int, context: ContextSettings) -> int:
    """The slots to open for a model loaded with `n_gpu_layers` and `context` (1: no slots)."""
    count = min(MAX_DEFAULT_SLOTS, context.n_ctx // MIN_SLOT_CTX)
    if count <= 1:
        return 1
    memory = slots_memory(planner, n_gpu_layers, context, count)
    if memory.gpu_bytes > 0 and memory.gpu_bytes > (machine.free_vram or 0):
        return 1
    if memory.ram_bytes > machine.usable_ram:
        return 1
    return count


def planned_parallel(loaded: LoadConfig) -> int:
    """`default_parallel` for the model just loaded with `loaded`, in the memory free now (1 when its
    headers cannot be read any more: no plan, no slots)."""
    try:
        planner = MemoryPlanner.for_load(loaded)
    except GgufInfoError as error:
        log.warning("No memory plan for parallel replies (%s): one reply at a time.", error.reason)
        return 1
    return default_parallel(planner, machine_now(), loaded.n_gpu_layers, ContextSettings.for_config(loaded))
