"""One resource sample: the machine and this app at one moment, as plain data.

Every reading the OS or the driver may not give is `None` ("not measured"), never 0: a GPU
without a power sensor has no power, not zero watts. One sample serves every view of the
hardware: the Monitor's plots and alerts and the GPU offload panel read the same `hardware`
snapshot (its GPUs are `GpuSnapshot`s, the one record of a GPU reading).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.memory.hardware import GpuSnapshot, GpuState, HardwareSnapshot


@dataclass(frozen=True)
class ResourceSample:
    t: float  # seconds since the session began: the time axis of the timeline and the reply spans
    wall: float  # seconds since the epoch, for the CSV
    cpu_app_percent: float | None  # the app's processes together, as a share of the whole machine (all cores)
    cpu_total_percent: float | None  # the whole machine; None for the first sample (no interval yet)
    ram_app: int | None  # resident memory of the app's processes
    ram_total: int | None
    ram_available: int | None
    swap_used: int | None
    window_pid: int
    child_pids: tuple[int, ...]  # the processes counted besides the window's: the engine (and its helpers)
    hardware: HardwareSnapshot  # the same reading as the GPU offload panel shows it (free VRAM, driver, offload)

    @property
    def gpus(self) -> tuple[GpuSnapshot, ...]:
        return self.hardware.gpus

    @property
    def gpu_state(self) -> GpuState:
        return self.hardware.state

    @property
    def gpu_reason(self) -> str:
        """One line when the GPUs could not be read; empty when all is well."""
        return self.hardware.reason

    @property
    def ram_available_percent(self) -> float | None:
        if self.ram_total is None or self.ram_available is None or not self.ram_total:
            return None
        return self.ram_available / self.ram_total * 100

    @property
    def vram_app(self) -> int | None:
        """VRAM this app holds on all GPUs; None when a GPU does not list processes."""
        return self.hardware.vram_used_by_app
