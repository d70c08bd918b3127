"""Quantization types of GGUF files: names parsed from file names, quality notes, and a fit hint.

The fit hint is a first look before anything is downloaded, from the file size alone: the
weights plus a working allowance for the KV cache and compute buffers at a typical context.
The memory planner (`memory_plan.py`) gives exact numbers from the file's tensors once it is
on disk.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.support.formatting import format_bytes

GIB = 1024**3
MIB = 1024**2


@dataclass(frozen=True)
class QuantType:
    name: str
    rank: int  # higher is closer to the original weights
    note: str


# Ordered best first; ranks follow the usual perplexity ordering of llama.cpp's quantize table.
_TABLE: tuple[tuple[str, str], ...] = (
    ("F32", "32-bit floats: the original weights, twice the size of F16; rarely worth it"),
    ("F16", "16-bit floats: lossless in practice, the largest useful size"),
    ("BF16", "16-bit brain floats: lossless in practice, the largest useful size"),
    ("Q8_0", "8-bit: near-lossless, about half the size of F16"),
    ("Q8_K_XL", "8-bit with some tensors kept larger: near-lossless"),
    ("Q6_K_XL", "6-bit with some tensors kept larger: practically as good as Q8_0"),
    ("Q6_K", "6-bit: practically as good as Q8_0, noticeably smaller"),
    ("Q5_K_XL", "5-bit with some tensors kept larger: very low loss"),
    ("Q5_K_M", "5-bit: very low loss; a good choice when it fits"),
    ("Q5_K_S", "5-bit: low loss, a little smaller than Q5_K_M"),
    ("Q5_1", "5-bit (legacy): low loss"),
    ("Q5_0", "5-bit (legacy): low loss"),
    ("Q4_K_XL", "4-bit with some tensors kept larger: balanced, slightly better than Q4_K_M"),
    ("Q4_K_M", "4-bit: balanced quality and size; the usual recommendation"),
    ("Q4_K_S", "4-bit: a little more loss than Q4_K_M, a little smaller"),
    ("IQ4_NL", "4-bit i-quant: close to Q4_K_S; slower on some CPUs"),
    ("IQ4_XS", "4-bit i-quant: close to Q4_K_S and smaller; slower on some CPUs"),
    ("MXFP4", "4-bit microscaling floats: the native format of some recent models"),
    ("Q4_1", "4-bit (legacy): more loss than Q4_K_M at a similar size"),
    ("Q4_0", "4-bit (legacy): more loss than Q4_K_M at a similar size; fast on ARM CPUs"),
    ("Q3_K_XL", "3-bit with some tensors kept larger: noticeable loss"),
    ("Q3_K_L", "3-bit: noticeable loss; for tight memory"),
    ("Q3_K_M", "3-bit: noticeable loss; for tight memory"),
    ("IQ3_M", "3-bit i-quant: noticeable loss, better than Q3_K_S"),
    ("IQ3_S", "3-bit i-quant: clear loss"),
    ("Q3_K_S", "3-bit: clear loss"),
    ("IQ3_XS", "3-bit i-quant: clear loss"),
    ("IQ3_XXS", "3-bit i-quant: clear loss, the smallest 3-bit"),
    ("Q2_K_XL", "2-bit with some tensors kept larger: heavy loss"),
    ("Q2_K", "2-bit: heavy loss; a last resort for very large models"),
    ("Q2_K_S", "2-bit: heavy loss; a last resort for very large models"),
    ("IQ2_M", "2-bit i-quant: heavy loss; only for very large models"),
    ("IQ2_S", "2-bit i-quant: heavy loss; only for very large models"),
    ("IQ2_XS", "2-bit i-quant: very heavy loss; only for very large models"),
    ("IQ2_XXS", "2-bit i-quant: very heavy loss; only for very large models"),
    ("TQ2_0", "ternary: only for models trained ternary (BitNet)"),
    ("TQ1_0", "ternary: only for models trained ternary (BitNet)"),
    ("IQ1_M", "1-bit i-quant: severe loss; barely usable"),
    ("IQ1_S", "1-bit i-quant: severe loss; barely usable"),
)

QUANT_TYPES: dict[str, QuantType] = {
    name: QuantType(name, rank=len(_TABLE) - index, note=note) for index, (name, note) in enumerate(_TABLE)
}

# The ternary quantizations only suit models trained for them; never suggested on their own.
_NEVER_RECOMMENDED = {"TQ1_0", "TQ2_0"}
# Above these levels a bigger file buys no visible quality: on the GPU, Q8_0 (F16 just doubles
# the memory); off the GPU, where every byte is read once per token, Q5_K_M.
_GPU_QUALITY_CAP = QUANT_TYPES["Q8_0"].rank
_CPU_QUALITY_CAP = QUANT_TYPES["Q5_K_M"].rank
# Below this level quality suffers badly; only offered when nothing better fits.
_COMFORT_FLOOR = QUANT_TYPES["Q3_K_M"].rank

_QUANT_PATTERN = re.compile(
    r"(?<![A-Za-z0-9])("
    r"IQ[1-4]_(?:XXS|XS|NL|S|M)"
    r"|TQ[12]_0"
    r"|Q[2-8]_K_(?:XL|L|M|S)"
    r"|Q[2-8]_K"
    r"|Q[4-8]_[01]"
    r"|BF16|F16|FP16|F32|FP32|MXFP4"
    r")(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_ALIASES = {"FP16": "F16", "FP32": "F32"}


def parse_quant(filename: str) -> str | None:
    """The quantization named in a GGUF file name (`model.Q4_K_M.gguf` -> "Q4_K_M"), or None.

    The last match wins: names like `Q8_0-model-Q4_K_M.gguf` come from repos whose own name
    carries a quantization, and the file's own tag sits next to the extension.
    """
    matches = _QUANT_PATTERN.findall(filename.rsplit("/", 1)[-1])
    if not matches:
        return None
    name = matches[-1].upper()
    return _ALIASES.get(name, name)


def quality_note(quant: str | None) -> str:
    if quant is None:
        return "quantization not named in the file name"
    known = QUANT_TYPES.get(quant)
    return known.note if known else f"{quant}: not a quantization Glassbox knows"


def quality_rank(quant: str | None) -> int:
    """Higher is closer to the original weights; 0 for unknown names."""
    known = QUANT_TYPES.get(quant or "")
    return known.rank if known else 0


class Fit(enum.Enum):
    GPU = "fully on GPU"
    PARTIAL = "partly offloaded"
    RAM = "RAM only"
    NO_FIT = "does not fit"


@dataclass(frozen=True)
class FitHint:
    fit: Fit
    needed_bytes: int
    gpu_fraction: float  # share of the model that would sit on the GPU, 0..1
    text: str


# Kept free for the desktop, the driver and the app itself.
VRAM_RESERVE = 512 * MIB
RAM_RESERVE = 1 * GIB
# Less usable VRAM than this is not worth offloading to.
MIN_USEFUL_VRAM = 512 * MIB


def memory_needed(file_size: int) -> int:
    """Weights plus an allowance for KV cache and compute buffers at a ~4k context.

    The allowance (a fifth of the weights, at least 256 MiB) matches llama.cpp's buffers for
    common models within a few hundred MiB; the exact figure comes from the memory planner.
    """
    return file_size + max(256 * MIB, file_size // 5)


def fit_hint(file_size: int, free_vram_bytes: int | None, free_ram_bytes: int) -> FitHint:
    """Whether a file of this size fits this machine, and how. `free_vram_bytes` None: no usable GPU."""
    needed = memory_needed(file_size)
    usable_vram = max(0, (free_vram_bytes or 0) - VRAM_RESERVE)
    usable_ram = max(0, free_ram_bytes - RAM_RESERVE)
    if free_vram_bytes is not None and needed <= usable_vram:
        return FitHint(Fit.GPU, needed, 1.0, f"fits fully on the GPU (needs about {format_bytes(needed)})")
    if free_vram_bytes is not None and usable_vram >= MIN_USEFUL_VRAM and needed - usable_vram <= usable_ram:
        share = usable_vram / needed
        return FitHint(
            Fit.PARTIAL,
            needed,
            share,
            f"partly offloaded: about {share:.0%} on the GPU, the rest in RAM (needs {format_bytes(needed)})",
        )
    if needed <= usable_ram:
        where = "no usable GPU memory" if free_vram_bytes is None or usable_vram < MIN_USEFUL_VRAM else ""
        suffix = f"; {where}" if where else ""
        return FitHint(Fit.RAM, needed, 0.0, f"runs from RAM only (needs {format_bytes(needed)}){suffix}")
    available = usable_ram + usable_vram
    return FitHint(
        Fit.NO_FIT,
        needed,
        0.0,
        f"does not fit: needs about {format_bytes(needed)}, {format_bytes(available)} free",
    )


@dataclass(frozen=True)
class Candidate:
    """One downloadable choice, as far as recommending goes."""

    key: str
    quant: str | None
    size_bytes: int


def recommend(candidates: Sequence[Candidate], free_vram_bytes: int | None, free_ram_bytes: int) -> str | None:
    """The key of the variant to suggest, or None when nothing fits.

    The best quality that runs fully on the GPU, up to Q8_0; else, off the GPU, the best
    quality up to Q5_K_M (bigger files are slower per token with no visible gain); a
    quantization below Q3_K_M only when nothing better fits; above the caps only when the
    repository offers nothing smaller, and then the smallest.
    """
    scored: list[tuple[int, int, int, int, int, str]] = []
    for candidate in candidates:
        if candidate.quant in _NEVER_RECOMMENDED:
            continue
        hint = fit_hint(candidate.size_bytes, free_vram_bytes, free_ram_bytes)
        if hint.fit is Fit.NO_FIT:
            continue
        rank = quality_rank(candidate.quant)
        on_gpu = hint.fit is Fit.GPU
        within_cap = rank <= (_GPU_QUALITY_CAP if on_gpu else _CPU_QUALITY_CAP)
        comfortable = rank >= _COMFORT_FLOOR
        scored.append(
            (int(comfortable), int(within_cap), int(on_gpu), rank if within_cap else -rank, -candidate.size_bytes, candidate.key)
        )
    if not scored:
        return None
    return max(scored)[-1]


def free_memory_now() -> tuple[int | None, int]:
    """(free VRAM this app could use, or None when it cannot offload; available RAM), measured now."""
    import psutil

    from app.core.memory.hardware import HardwareMonitor

    monitor = HardwareMonitor()
    try:
        snapshot = monitor.snapshot()
    finally:
        monitor.close()
    free_ram = snapshot.ram.available if snapshot.ram else psutil.virtual_memory().available
    return (snapshot.vram_available_to_app if snapshot.can_offload else None), free_ram
