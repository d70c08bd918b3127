"""Does a model fit this machine, and which variant of a repository to suggest: the one fit model.

The verdict comes from the memory planner, with the numbers the GPU panel uses for the
same file: the free VRAM this app could use, the CUDA overhead per GPU, the safety margin,
and the context the model would be loaded with. A variant fits fully on the GPU when the
planner's recommended layer count is "all", partly when it is some, and runs from RAM when
there is no GPU to offload to or none of it is free; each of these also needs its RAM part
in the available RAM. So a variant the Models window marks as fitting is one the GPU panel
shows green.

Only when a variant's header cannot be read (offline, a server without byte ranges, a
damaged header) is the verdict guessed from the file size, and the hint says so.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.core.memory.hardware import HardwareMonitor, HardwareSnapshot
from app.core.memory.planner import (
    DEFAULT_RUNTIME_OVERHEAD,
    DEFAULT_SAFETY_MARGIN,
    GIB,
    MIB,
    ContextSettings,
    MemoryPlan,
    MemoryPlanner,
)
from app.core.models.gguf_info import GgufInfo
from app.core.models.quant import QUANT_TYPES, quality_rank
from app.core.support.formatting import format_bytes

# Kept free in RAM for the desktop and the app itself.
RAM_RESERVE = 1 * GIB

# The ternary quantizations only suit models trained for them; never suggested on their own.
_NEVER_RECOMMENDED = {"TQ1_0", "TQ2_0"}
# Above these levels a bigger file buys no visible quality: on the GPU, Q8_0 (F16 just doubles
# the memory); off the GPU, where every byte is read once per token, Q5_K_M.
_GPU_QUALITY_CAP = QUANT_TYPES["Q8_0"].rank
_CPU_QUALITY_CAP = QUANT_TYPES["Q5_K_M"].rank
# Below this level quality suffers badly; only offered when nothing better fits.
_COMFORT_FLOOR = QUANT_TYPES["Q3_K_M"].rank


class Fit(enum.Enum):
    GPU = "fully on GPU"
    PARTIAL = "partly offloaded"
    RAM = "RAM only"
    NO_FIT = "does not fit"


@dataclass(frozen=True)
class Machine:
    """What the verdict needs from a hardware snapshot."""

    free_vram: int | None  # what this app could use on all GPUs; None: this build or machine cannot offload
    free_ram: int
    gpus: int = 1

    @classmethod
    def from_snapshot(cls, snapshot: HardwareSnapshot) -> Machine:
        free_ram = snapshot.ram.available if snapshot.ram else 0
        if not snapshot.can_offload:
            return cls(None, free_ram, 0)
        return cls(snapshot.vram_available_to_app, free_ram, len(snapshot.gpus))

    @property
    def runtime_overhead(self) -> int:
        """The CUDA context and libraries, once per GPU (as the GPU panel plans it)."""
        return DEFAULT_RUNTIME_OVERHEAD * max(1, self.gpus)

    @property
    def usable_ram(self) -> int:
        return max(0, self.free_ram - RAM_RESERVE)


def machine_now() -> Machine:
    """This machine's free memory, measured now (NVML, psutil)."""
    monitor = HardwareMonitor()
    try:
        return Machine.from_snapshot(monitor.snapshot())
    finally:
        monitor.close()


@dataclass(frozen=True)
class FitHint:
    fit: Fit
    gpu_bytes: int  # VRAM the load would take (0 off the GPU)
    ram_bytes: int  # RAM the load would take
    gpu_layers: int  # n_gpu_layers of the plan; for an estimate, 0 or -1 (all)
    max_gpu_layers: int  # 0 for an estimate (the layer count is not known)
    estimated: bool  # True: guessed from the file size, the header could not be read
    text: str  # one line in English, for the command line and the log


@dataclass(frozen=True)
class Candidate:
    """One downloadable choice, as far as fitting goes: its header when it could be read."""

    key: str
    quant: str | None
    size_bytes: int
    info: GgufInfo | None = None


def fit_hint(candidate: Candidate, machine: Machine, context: ContextSettings) -> FitHint:
    """How this candidate would load on this machine: from its header when known, else from its size."""
    if candidate.info is not None:
        return plan_fit(MemoryPlanner(candidate.info, machine.runtime_overhead), machine, context)
    return estimate_fit(candidate.size_bytes, machine)


def plan_fit(
    planner: MemoryPlanner, machine: Machine, context: ContextSettings, margin: int = DEFAULT_SAFETY_MARGIN
) -> FitHint:
    """The verdict from the planner: the layer count the GPU panel would recommend, then RAM for the rest."""
    if machine.free_vram is not None:
        layers = planner.recommend(context, machine.free_vram, margin)
        if layers > 0:
            plan = planner.plan(layers, context)
            if plan.cpu_total <= machine.usable_ram:
                return _planned(Fit.GPU if plan.all_on_gpu else Fit.PARTIAL, plan, planner)
    plan = planner.plan(0, context, gpu=False)
    if plan.cpu_total <= machine.usable_ram:
        return _planned(Fit.RAM, plan, planner, no_gpu=machine.free_vram is None)
    return _planned(Fit.NO_FIT, plan, planner, available=machine.usable_ram + (machine.free_vram or 0))


def _planned(fit: Fit, plan: MemoryPlan, planner: MemoryPlanner, no_gpu: bool = False, available: int = 0) -> FitHint:
    gpu, ram = format_bytes(plan.gpu_total), format_bytes(plan.cpu_total)
    if fit is Fit.GPU:
        text = f"fits fully on the GPU: {gpu} of VRAM, {ram} of RAM"
    elif fit is Fit.PARTIAL:
        text = (
            f"partly offloaded: {plan.n_gpu_layers} of {planner.max_gpu_layers} layers on the GPU ({gpu}), {ram} in RAM"
        )
    elif fit is Fit.RAM:
        text = f"runs from RAM only: {ram}" + ("; no GPU to offload to" if no_gpu else "; not enough free VRAM")
    else:
        text = f"does not fit: needs {ram} of RAM, {format_bytes(available)} free"
    return FitHint(fit, plan.gpu_total, plan.cpu_total, plan.n_gpu_layers, planner.max_gpu_layers, False, text)


ESTIMATE_NOTE = "estimated from the file size"


def estimated_need(file_size: int) -> int:
    """Weights plus an allowance for KV cache and compute buffers at a ~4k context.

    The allowance (a fifth of the weights, at least 256 MiB) matches llama.cpp's buffers for
    common models within a few hundred MiB; only used when the header cannot be read.
    """
    return file_size + max(256 * MIB, file_size // 5)


def estimate_fit(file_size: int, machine: Machine, margin: int = DEFAULT_SAFETY_MARGIN) -> FitHint:
    """A guess from the file size alone, with the planner's overhead and margin on the GPU side."""
    needed = estimated_need(file_size)
    usable_vram = max(0, (machine.free_vram or 0) - machine.runtime_overhead - margin)
    usable_ram = machine.usable_ram
    suffix = f" ({ESTIMATE_NOTE})"
    if machine.free_vram is not None and needed <= usable_vram:
        text = f"fits fully on the GPU: about {format_bytes(needed + machine.runtime_overhead)} of VRAM"
        return FitHint(Fit.GPU, needed + machine.runtime_overhead, 0, -1, 0, True, text + suffix)
    if machine.free_vram is not None and usable_vram > 0 and needed - usable_vram <= usable_ram:
        share = usable_vram / needed
        text = f"partly offloaded: about {share:.0%} on the GPU, the rest in RAM (needs {format_bytes(needed)})"
        return FitHint(
            Fit.PARTIAL, usable_vram + machine.runtime_overhead, needed - usable_vram, 0, 0, True, text + suffix
        )
    if needed <= usable_ram:
        return FitHint(Fit.RAM, 0, needed, 0, 0, True, f"runs from RAM only: about {format_bytes(needed)}" + suffix)
    text = f"does not fit: needs about {format_bytes(needed)}, {format_bytes(usable_ram + usable_vram)} free"
    return FitHint(Fit.NO_FIT, 0, needed, 0, 0, True, text + suffix)


@dataclass(frozen=True)
class Assessment:
    """Every candidate's hint on one machine and the one to suggest (None: nothing fits)."""

    machine: Machine
    hints: Mapping[str, FitHint]
    recommended: str | None


def assess(candidates: Sequence[Candidate], machine: Machine, context: ContextSettings) -> Assessment:
    hints = {candidate.key: fit_hint(candidate, machine, context) for candidate in candidates}
    return Assessment(machine, hints, _best(candidates, hints))


def recommend(candidates: Sequence[Candidate], machine: Machine, context: ContextSettings) -> str | None:
    """The key of the variant to suggest, or None when nothing fits.

    The best quality that runs fully on the GPU, up to Q8_0; else, off the GPU, the best
    quality up to Q5_K_M (bigger files are slower per token with no visible gain); a
    quantization below Q3_K_M only when nothing better fits; above the caps only when the
    repository offers nothing smaller, and then the smallest.
    """
    return assess(candidates, machine, context).recommended


def _best(candidates: Sequence[Candidate], hints: Mapping[str, FitHint]) -> str | None:
    scored: list[tuple[int, int, int, int, int, str]] = []
    for candidate in candidates:
        if candidate.quant in _NEVER_RECOMMENDED:
            continue
        hint = hints[candidate.key]
        if hint.fit is Fit.NO_FIT:
            continue
        rank = quality_rank(candidate.quant)
        on_gpu = hint.fit is Fit.GPU
        within_cap = rank <= (_GPU_QUALITY_CAP if on_gpu else _CPU_QUALITY_CAP)
        comfortable = rank >= _COMFORT_FLOOR
        scored.append(
            (
                int(comfortable),
                int(within_cap),
                int(on_gpu),
                rank if within_cap else -rank,
                -candidate.size_bytes,
                candidate.key,
            )
        )
    if not scored:
        return None
    return max(scored)[-1]
