"""A reply's wait for the model and its GPU energy, measured around what the engine measures itself.

The queue wait runs from the moment the reply was asked for to the moment the model began
on it (behind the API server's requests, or a plan of the context window). The energy is the
growth of NVML's total-energy counters of every GPU over the reply, prompt processing and
decoding together; per generated token it is what a person running a long job on their own
GPU compares. The counter belongs to the whole GPU, so another program busy on the same GPU
meanwhile adds to it. A GPU without the counter (older than Volta, some drivers), a machine
without NVML, a model on the CPU, or a counter that went backwards (the driver was reloaded)
is "not measured": None, never 0.
"""

from __future__ import annotations

import time
from dataclasses import replace

from app.core.memory.hardware import HardwareMonitor
from app.core.types.stats import ReplyMetrics


class EnergyMeter:
    """Reads the GPUs' energy counters; use from one thread (the LLM worker's)."""

    def __init__(self, hardware: HardwareMonitor | None = None) -> None:
        self._hardware = hardware or HardwareMonitor()

    def read(self) -> tuple[float | None, ...]:
        return self._hardware.energy_counters()

    def close(self) -> None:
        self._hardware.close()


def energy_between(before: tuple[float | None, ...], after: tuple[float | None, ...]) -> float | None:
    """Joules used between two readings by the GPUs that have a counter; None when none has one."""
    if not before or len(before) != len(after):
        return None
    used = [b - a for a, b in zip(before, after, strict=True) if a is not None and b is not None]
    if not used or any(joules < 0 for joules in used):
        return None
    return sum(used)


class ReplyMeasure:
    """Started when a reply is asked for; `began()` when the model takes it; `finish()` adds what was measured."""

    def __init__(self, requested_at: float, meter: EnergyMeter | None) -> None:
        self._requested_at = requested_at
        self._meter = meter  # None: the model is not on a GPU of this machine
        self._began_at: float | None = None
        self._before: tuple[float | None, ...] = ()

    def began(self) -> None:
        self._began_at = time.perf_counter()
        if self._meter is not None:
            self._before = self._meter.read()

    def finish(self, metrics: ReplyMetrics) -> ReplyMetrics:
        energy = energy_between(self._before, self._meter.read()) if self._meter is not None else None
        wait = self._began_at - self._requested_at if self._began_at is not None else None
        return replace(metrics, queue_wait_s=wait, gpu_energy_j=energy)
