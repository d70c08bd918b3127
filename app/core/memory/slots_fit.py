"""How many parallel slots `glassbox serve` opens when not told: what the memory plan allows, at most 4.

The slots get a context of their own beside the chat context (app/core/inference/slots.py),
the load's n_ctx split across them as llama-server splits it, so what they add is one KV cache
of n_ctx cells and a compute buffer, whatever their number (sized as a beam context's, see
beam_fit.py). They are opened when that fits in the memory free now, as many as leave each
slot `MIN_SLOT_CTX` tokens; else the server writes one reply at a time, as before.
"""

from __future__ import annotations

from app.core.memory.beam_fit import beam_memory
from app.core.memory.fit import Machine
from app.core.memory.planner import MemoryPlanner

MAX_DEFAULT_SLOTS = 4
MIN_SLOT_CTX = 1024  # tokens each slot holds at least (llama-server's 4096 split in 4)


def default_parallel(planner: MemoryPlanner, machine: Machine, n_gpu_layers: int, n_ctx: int) -> int:
    """The slots to open for a model loaded with `n_gpu_layers` and `n_ctx` (1: no slots)."""
    count = min(MAX_DEFAULT_SLOTS, n_ctx // MIN_SLOT_CTX)
    if count <= 1:
        return 1
    memory = beam_memory(planner, n_gpu_layers, n_ctx)
    if memory.gpu_bytes > (machine.free_vram or 0) and memory.gpu_bytes > 0:
        return 1
    if memory.ram_bytes > machine.usable_ram:
        return 1
    return count
