"""GPUs (through NVML) and RAM (through psutil), as snapshots that do not raise for the machine's sake.

A machine without an NVIDIA driver, a driver that stops answering mid-poll, or a
process list NVML may not show: each becomes a state with a one-line reason the
panel can print, never an exception in the UI. Only NVML's errors and the OS's are
caught that way: a bug in Glassbox still raises, instead of blaming the driver.
"""

from __future__ import annotations

import enum
import logging
import os
import sys
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from functools import partial
from types import ModuleType

import psutil

from app.core.memory.process_tree import ProcessTree
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

GPU_BUILD_INSTALL = (
    'CMAKE_ARGS="-DGGML_CUDA=on" pip install llama-cpp-python==0.3.36 --no-binary llama-cpp-python --force-reinstall'
)


class GpuState(str, enum.Enum):
    AVAILABLE = "available"
    CPU_ONLY = "cpu only"  # no NVIDIA driver / GPU: nothing to offload to
    DEGRADED = "degraded"  # NVML worked before but failed in this poll


@dataclass(frozen=True)
class GpuSnapshot:
    index: int
    name: str
    total: int
    used: int
    free: int
    utilization_percent: int | None = None  # None: NVML does not report it for this GPU
    # What this app holds: the window's process and its children (the engine process).
    this_process: int | None = None  # None: NVML does not list processes here (no permission, WDDM)
    processes_visible: bool = True
    # Read only when asked for (`read_gpus(sensors=True)`); None where the GPU does not report it.
    temperature_c: int | None = None
    power_w: float | None = None
    energy_j: float | None = None  # NVML's total-energy counter (since the driver loaded); Volta and newer

    @property
    def other_processes(self) -> int:
        """Used memory that is not this app's (other programs, the display, the driver)."""
        return max(0, self.used - (self.this_process or 0))

    @property
    def used_percent(self) -> float:
        return self.used / self.total * 100 if self.total else 0.0

    @property
    def available_to_app(self) -> int:
        """What a (re)load of this app could use: free now plus what this app holds."""
        return self.free + (self.this_process or 0)


@dataclass(frozen=True)
class RamSnapshot:
    total: int
    available: int
    process_rss: int  # resident memory of the window's process and its children (the engine)

    @property
    def other_used(self) -> int:
        return max(0, self.total - self.available - self.process_rss)


@dataclass(frozen=True)
class OffloadSupport:
    """Whether this llama.cpp build can put layers on a GPU, and what to do if not."""

    supported: bool
    hint: str = ""


@dataclass(frozen=True)
class GpuReading:
    """The GPUs alone: what `HardwareMonitor.read_gpus` returns."""

    state: GpuState
    reason: str
    gpus: tuple[GpuSnapshot, ...]
    driver_version: str = ""


@dataclass(frozen=True)
class HardwareSnapshot:
    state: GpuState
    reason: str  # one line; empty when all is well
    gpus: tuple[GpuSnapshot, ...]
    ram: RamSnapshot | None
    driver_version: str = ""
    offload: OffloadSupport = field(default_factory=lambda: OffloadSupport(False))

    @property
    def total_vram(self) -> int:
        return sum(gpu.total for gpu in self.gpus)

    @property
    def vram_available_to_app(self) -> int:
        return sum(gpu.available_to_app for gpu in self.gpus)

    @property
    def vram_used_by_app(self) -> int | None:
        if not self.gpus or any(gpu.this_process is None for gpu in self.gpus):
            return None
        return sum(gpu.this_process or 0 for gpu in self.gpus)

    @property
    def can_offload(self) -> bool:
        return self.state is GpuState.AVAILABLE and bool(self.gpus) and self.offload.supported


def llama_offload_support() -> OffloadSupport:
    """Ask llama.cpp whether this build has a GPU backend (CUDA, Metal, Vulkan...)."""
    try:
        import llama_cpp

        supported = bool(llama_cpp.llama_supports_gpu_offload())
    except Exception as error:  # a broken llama.cpp install is reported, not raised
        log.warning("Cannot ask llama.cpp about GPU offload: %s", error)
        return OffloadSupport(False, f"llama.cpp could not be asked about GPU support ({error}).")
    if supported:
        return OffloadSupport(True)
    if getattr(sys, "frozen", False):  # an installed bundle: there is no pip to run
        return OffloadSupport(
            False,
            "This Glassbox package runs on the CPU only. For an NVIDIA GPU, build Glassbox from source "
            "with a CUDA build of llama.cpp (see the README).",
        )
    return OffloadSupport(
        False,
        "This llama.cpp build runs on the CPU only. For an NVIDIA GPU, install a CUDA build: " + GPU_BUILD_INSTALL,
    )


class HardwareMonitor:
    """Takes snapshots; safe to call from one sampler thread at a time (a lock guards NVML).

    "This process" is the app: the process `pid` (this one by default) and its children,
    so the VRAM and RAM the engine process holds count as Glassbox's, not as another program's.
    """

    def __init__(
        self,
        nvml: ModuleType | None = None,
        pid: int | None = None,
        offload: OffloadSupport | None = None,
    ) -> None:
        self._nvml = nvml
        self._pid = os.getpid() if pid is None else pid
        self._process = psutil.Process(self._pid)
        self._tree = ProcessTree(self._pid)
        self._children: dict[int, psutil.Process] = {}
        self._offload = offload
        self._lock = threading.Lock()
        self._started = False
        self._unavailable_reason = ""
        self._driver_version = ""

    def snapshot(self) -> HardwareSnapshot:
        """The machine now. NVML and OS failures become a state and a reason, never an exception."""
        pids = self._tree.pids()
        with self._lock:
            ram = self._ram(pids)
        offload = self.offload_support()
        reading = self.read_gpus(pids)
        return HardwareSnapshot(reading.state, reading.reason, reading.gpus, ram, reading.driver_version, offload)

    def read_gpus(self, pids: Collection[int] | None = None, sensors: bool = False) -> GpuReading:
        """The GPUs now, with `pids` (default: this app's processes) as "this process".

        `sensors` also reads each GPU's temperature, power draw and energy counter.
        """
        app_pids = set(self._tree.pids() if pids is None else pids)
        with self._lock:
            nvml = self._start()
            if nvml is None:
                return GpuReading(GpuState.CPU_ONLY, self._unavailable_reason, ())
            try:
                gpus = tuple(self._gpu(nvml, index, app_pids, sensors) for index in range(nvml.nvmlDeviceGetCount()))
            except (nvml.NVMLError, OSError) as error:  # a driver that failed or vanished under us
                reason = f"The NVIDIA driver stopped answering ({_describe(error)}); GPU numbers are not current."
                log.warning("NVML poll failed: %s", _describe(error))
                return GpuReading(GpuState.DEGRADED, reason, (), self._driver_version)
        if not gpus:
            return GpuReading(GpuState.CPU_ONLY, "The NVIDIA driver reports no GPU.", (), self._driver_version)
        return GpuReading(GpuState.AVAILABLE, "", gpus, self._driver_version)

    def energy_counters(self) -> tuple[float | None, ...]:
        """Each GPU's total-energy counter in joules now (None for a GPU without one); () without NVML.

        Cheaper than `read_gpus`: one NVML call per GPU, for measuring a reply's energy."""
        with self._lock:
            nvml = self._start()
            if nvml is None:
                return ()
            try:
                handles = [nvml.nvmlDeviceGetHandleByIndex(index) for index in range(nvml.nvmlDeviceGetCount())]
            except (nvml.NVMLError, OSError) as error:
                log.debug("No energy counters: %s", _describe(error))
                return ()
            counters = [
                _optional(nvml, partial(nvml.nvmlDeviceGetTotalEnergyConsumption, handle)) for handle in handles
            ]
            return tuple(None if energy_mj is None else int(energy_mj) / 1000 for energy_mj in counters)

    def offload_support(self) -> OffloadSupport:
        """Whether this llama.cpp build can offload; asked once, then remembered."""
        with self._lock:
            if self._offload is None:
                self._offload = llama_offload_support()
            return self._offload

    def close(self) -> None:
        with self._lock:
            if self._started and self._nvml is not None:
                try:
                    self._nvml.nvmlShutdown()
                except (self._nvml.NVMLError, OSError) as error:
                    log.debug("nvmlShutdown failed: %s", error)
            self._started = False

    # ---- parts -------------------------------------------------------------------

    def _start(self) -> ModuleType | None:
        """Initialise NVML once and hand it out; None (and why, remembered so polls stay cheap) if it fails."""
        if self._started:
            return self._nvml
        if self._unavailable_reason:
            return None
        if self._nvml is None:
            try:
                import pynvml
            except ImportError:
                self._unavailable_reason = "NVML is not installed (the nvidia-ml-py package); running on the CPU."
                return None
            self._nvml = pynvml
        nvml = self._nvml
        try:
            nvml.nvmlInit()
        except (nvml.NVMLError, OSError) as error:
            self._unavailable_reason = _cpu_only_reason(nvml, error)
            log.info("No GPU monitoring: %s", self._unavailable_reason)
            return None
        self._started = True
        try:
            self._driver_version = _text(nvml.nvmlSystemGetDriverVersion())
        except (nvml.NVMLError, OSError) as error:
            log.debug("No driver version from NVML: %s", error)
        return nvml

    def _gpu(self, nvml: ModuleType, index: int, app_pids: set[int], sensors: bool) -> GpuSnapshot:
        handle = nvml.nvmlDeviceGetHandleByIndex(index)
        memory = nvml.nvmlDeviceGetMemoryInfo(handle)
        utilization: int | None
        try:
            utilization = int(nvml.nvmlDeviceGetUtilizationRates(handle).gpu)
        except nvml.NVMLError_NotSupported:
            utilization = None
        this_process, visible = self._process_usage(nvml, handle, app_pids)
        snapshot = GpuSnapshot(
            index=index,
            name=_text(nvml.nvmlDeviceGetName(handle)),
            total=int(memory.total),
            used=int(memory.used),
            free=int(memory.free),
            utilization_percent=utilization,
            this_process=this_process,
            processes_visible=visible,
        )
        if not sensors:
            return snapshot
        temperature = _optional(nvml, lambda: int(nvml.nvmlDeviceGetTemperature(handle, nvml.NVML_TEMPERATURE_GPU)))
        power_mw = _optional(nvml, lambda: int(nvml.nvmlDeviceGetPowerUsage(handle)))
        energy_mj = _optional(nvml, lambda: int(nvml.nvmlDeviceGetTotalEnergyConsumption(handle)))
        return replace(
            snapshot,
            temperature_c=temperature,
            power_w=None if power_mw is None else power_mw / 1000,
            energy_j=None if energy_mj is None else energy_mj / 1000,
        )

    def _process_usage(self, nvml: ModuleType, handle: object, app_pids: set[int]) -> tuple[int | None, bool]:
        """Bytes this app's processes hold on the GPU, as NVML lists them (compute and graphics contexts)."""
        try:
            processes = list(nvml.nvmlDeviceGetComputeRunningProcesses(handle))
            processes += nvml.nvmlDeviceGetGraphicsRunningProcesses(handle)
        except (nvml.NVMLError_NotSupported, nvml.NVMLError_NoPermission):
            return None, False
        used = [p.usedGpuMemory for p in processes if p.pid in app_pids]
        if any(size is None for size in used):
            return None, False  # Windows WDDM does not report per-process memory
        return sum(used), True

    def _ram(self, pids: tuple[int, ...]) -> RamSnapshot | None:
        try:
            memory = psutil.virtual_memory()
            rss = int(self._process.memory_info().rss)
        except (psutil.Error, OSError) as error:
            log.warning("Cannot read RAM usage: %s", error)
            return None
        return RamSnapshot(int(memory.total), int(memory.available), rss + self._children_rss(pids[1:]))

    def _children_rss(self, pids: tuple[int, ...]) -> int:
        """Resident memory of the children; one that has just ended counts as nothing."""
        for gone in set(self._children) - set(pids):
            del self._children[gone]
        total = 0
        for pid in pids:
            try:
                process = self._children.get(pid) or self._children.setdefault(pid, psutil.Process(pid))
                total += int(process.memory_info().rss)
            except (psutil.Error, OSError):
                self._children.pop(pid, None)
                self._tree.forget(pid)
        return total


def _optional(nvml: ModuleType, read: Callable[[], int]) -> int | None:
    """A sensor some GPUs or drivers do not have (consumer cards, older drivers): None then."""
    try:
        return read()
    except nvml.NVMLError as error:
        log.debug("NVML sensor not available: %s", _describe(error))
        return None


def _cpu_only_reason(nvml: ModuleType, error: BaseException) -> str:
    if isinstance(error, nvml.NVMLError_LibraryNotFound):
        return N_("No NVIDIA driver found (NVML library missing); running on the CPU.")
    if isinstance(error, nvml.NVMLError_DriverNotLoaded):
        return N_("The NVIDIA driver is not loaded; running on the CPU.")
    if isinstance(error, nvml.NVMLError_NoPermission):
        return N_("No permission to talk to the NVIDIA driver; running on the CPU.")
    return fill(N_("NVIDIA GPU monitoring is unavailable ({error}); running on the CPU."), error=_describe(error))


def _describe(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # NVMLError.__str__ may itself call into a missing library
        text = ""
    return text or type(error).__name__


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
