"""llama.cpp's own account of the memory it allocated, read from its log while a model loads.

While loading, llama.cpp logs one line per buffer it allocates, for example

    load_tensors:   CPU_Mapped model buffer size =    92.10 MiB
    load_tensors:        CUDA0 model buffer size =  1530.00 MiB
    llama_kv_cache:        CPU KV buffer size =    45.00 MiB
    llama_kv_cache: size =   45.00 MiB (  2048 cells,  30 layers,  1/1 seqs), K (f16):   22.50 MiB, V (f16):   22.50 MiB
    sched_reserve:        CPU compute buffer size =    99.38 MiB

These are the ground truth the memory planner is measured against, and what the GPU
check prints next to NVML's numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from app.core.inference.llama_log import add_line_listener, install_llama_logging, remove_line_listener

MIB = 1024 * 1024

_BUFFER = re.compile(r"(?P<name>\S+)\s+(?P<kind>model|KV|compute|output) buffer size\s*=\s*(?P<mib>[\d.]+) MiB")
_KV_SUMMARY = re.compile(
    r"llama_kv_cache[^:]*: size =\s*(?P<total>[\d.]+) MiB \(\s*(?P<cells>\d+) cells,\s*(?P<layers>\d+) layers,"
    r".*K \((?P<k_type>\w+)\):\s*(?P<k>[\d.]+) MiB, V \((?P<v_type>\w+)\):\s*(?P<v>[\d.]+) MiB"
)
_RESERVING = re.compile(r"sched_reserve: reserving")


def is_host_buffer(name: str) -> bool:
    """Buffers in system RAM: `CPU`, `CPU_Mapped`, `CPU_REPACK`, pinned `CUDA_Host`..."""
    return name.startswith("CPU") or name.endswith("_Host")


@dataclass(frozen=True)
class KvCacheSummary:
    """One `llama_kv_cache: size = ...` line (models with sliding windows log two caches)."""

    total_bytes: int
    cells: int
    layers: int
    k_type: str
    v_type: str
    k_bytes: int
    v_bytes: int


@dataclass
class LlamaBuffers:
    """Bytes per buffer name, by kind, as llama.cpp logged them."""

    model: dict[str, int] = field(default_factory=dict)
    kv: dict[str, int] = field(default_factory=dict)
    compute: dict[str, int] = field(default_factory=dict)
    output: dict[str, int] = field(default_factory=dict)
    kv_caches: list[KvCacheSummary] = field(default_factory=list)

    def feed(self, line: str) -> None:
        """Take one log line; lines that are not about buffers are ignored."""
        if _RESERVING.search(line):
            self.compute.clear()  # a new reservation replaces the previous one
            return
        summary = _KV_SUMMARY.search(line)
        if summary:
            self.kv_caches.append(
                KvCacheSummary(
                    total_bytes=_bytes(summary["total"]),
                    cells=int(summary["cells"]),
                    layers=int(summary["layers"]),
                    k_type=summary["k_type"],
                    v_type=summary["v_type"],
                    k_bytes=_bytes(summary["k"]),
                    v_bytes=_bytes(summary["v"]),
                )
            )
            return
        match = _BUFFER.search(line)
        if match:
            table = {"model": self.model, "KV": self.kv, "compute": self.compute, "output": self.output}[match["kind"]]
            table[match["name"]] = table.get(match["name"], 0) + _bytes(match["mib"])

    @property
    def seen(self) -> bool:
        return bool(self.model or self.kv or self.compute)

    @property
    def model_bytes(self) -> int:
        return sum(self.model.values())

    @property
    def kv_bytes(self) -> int:
        return sum(self.kv.values())

    @property
    def compute_bytes(self) -> int:
        return sum(self.compute.values())

    @property
    def output_bytes(self) -> int:
        return sum(self.output.values())

    def device_bytes(self) -> int:
        """Everything llama.cpp put on accelerators (not host buffers)."""
        return sum(
            size
            for table in (self.model, self.kv, self.compute, self.output)
            for name, size in table.items()
            if not is_host_buffer(name)
        )

    def host_bytes(self) -> int:
        return sum(
            size
            for table in (self.model, self.kv, self.compute, self.output)
            for name, size in table.items()
            if is_host_buffer(name)
        )

    def device_split(self) -> dict[str, int]:
        """Device bytes by kind ("model", "KV", "compute", "output")."""
        tables = {"model": self.model, "KV": self.kv, "compute": self.compute, "output": self.output}
        return {kind: sum(size for name, size in t.items() if not is_host_buffer(name)) for kind, t in tables.items()}


def parse_buffer_lines(lines: Iterator[str] | list[str]) -> LlamaBuffers:
    buffers = LlamaBuffers()
    for line in lines:
        buffers.feed(line)
    return buffers


@contextmanager
def capture_llama_buffers() -> Iterator[LlamaBuffers]:
    """Collect the buffer sizes llama.cpp logs inside this block (one load at a time)."""
    install_llama_logging()
    buffers = LlamaBuffers()

    def listener(_level: int, line: str) -> None:
        buffers.feed(line)

    add_line_listener(listener)
    try:
        yield buffers
    finally:
        remove_line_listener(listener)


def _bytes(mib: str) -> int:
    return round(float(mib) * MIB)
