"""One resource sample: the machine and this app at one moment, as plain data.

Every reading the OS or the driver may not give is `None` ("not measured"), never 0: a GPU
without a power sensor has no power, not zero watts. One sample serves every view of the
hardware: the Monitor's plots and alerts read its fields, the GPU offload panel its
`hardware` snapshot, made from the same reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.memory.hardware import GpuState, HardwareSnapshot


@dataclass(frozen=True)
class GpuSample:
    index: int
    name: str
    vram_total: int
    vram_used: int
    vram_app: int | None  # the window's process and the engine process; None: NVML does not list processes
    utilization_percent: int | None = None
    temperature_c: int | None = None
    power_w: float | None = None
    energy_j: float | None = None  # NVML's total-energy counter; None on GPUs without one

    @property
    def vram_others(self) -> int:
        """Used VRAM that is not this app's (other programs, the display, the driver)."""
        return max(0, self.vram_used - (self.vram_app or 0))

    @property
    def vram_percent(self) -> float:
        return self.vram_used / self.vram_total * 100 if self.vram_total else 0.0


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
    gpus: tuple[GpuSample, ...] = ()

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
        if not self.gpus or any(gpu.vram_app is None for gpu in self.gpus):
            return None
        return sum(gpu.vram_app or 0 for gpu in self.gpus)
