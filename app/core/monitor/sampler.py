"""Takes a resource sample: CPU, RAM and swap through psutil, the GPUs through NVML.

The app is the window's process and its children (the engine process runs the model):
their CPU use and resident memory are added up, and NVML's per-process VRAM is matched
against all of their pids; the sample names the child pids it counted. A sample costs well
under a millisecond plus NVML's calls (a few per GPU), so one a second is invisible next
to a reply (the `monitor` bench section measures it).

The sample is the one reading of the hardware for the whole window: its `hardware` snapshot
(what the GPU offload panel shows) is made from the same NVML and psutil reads, not another.

CPU use is measured between two samples from the processes' and the machine's CPU times,
so the first sample has none, and neither does a process in its first sample.
"""

from __future__ import annotations

import logging
from typing import Any

import psutil

from app.core.memory.hardware import HardwareMonitor, HardwareSnapshot, RamSnapshot
from app.core.memory.process_tree import ProcessTree
from app.core.monitor.clock import SessionClock
from app.core.monitor.samples import ResourceSample

log = logging.getLogger(__name__)


class ResourceSampler:
    """Samples on demand; use from one thread at a time (the monitor's worker)."""

    def __init__(
        self,
        clock: SessionClock,
        hardware: HardwareMonitor | None = None,
        tree: ProcessTree | None = None,
        system: Any = psutil,  # psutil, or a stand-in of its shape (tests/fakes/fake_psutil.py)
    ) -> None:
        self._clock = clock
        self._hardware = hardware or HardwareMonitor()
        self._tree = tree or ProcessTree()
        self._system = system
        self._cpu_count = max(1, int(system.cpu_count() or 1))
        self._processes: dict[int, Any] = {}
        self._process_cpu: dict[int, float] = {}  # pid -> user + system seconds at the last sample
        self._machine_cpu: tuple[float, float] | None = None  # (busy, total) seconds at the last sample
        self._last_t: float | None = None
        self._warned: set[str] = set()

    @property
    def clock(self) -> SessionClock:
        """The session's clock: each sample's `t` is read from it as the sample begins."""
        return self._clock

    def sample(self) -> ResourceSample:
        t = self._clock.now()
        pids = self._tree.pids()
        interval = None if self._last_t is None else t - self._last_t
        self._last_t = t
        cpu_app, ram_app = self._app_usage(pids, interval)
        total, available = self._memory()
        reading = self._hardware.read_gpus(pids, sensors=True)
        ram = None if total is None or available is None or ram_app is None else RamSnapshot(total, available, ram_app)
        hardware = HardwareSnapshot(
            reading.state, reading.reason, reading.gpus, ram, reading.driver_version, self._hardware.offload_support()
        )
        return ResourceSample(
            t=t,
            wall=self._clock.wall_at(t),
            cpu_app_percent=cpu_app,
            cpu_total_percent=self._machine_cpu_percent(),
            ram_app=ram_app,
            ram_total=total,
            ram_available=available,
            swap_used=self._swap(),
            window_pid=pids[0],
            child_pids=pids[1:],
            hardware=hardware,
        )

    def close(self) -> None:
        self._hardware.close()

    # ---- parts -------------------------------------------------------------------

    def _app_usage(self, pids: tuple[int, ...], interval: float | None) -> tuple[float | None, int | None]:
        """(CPU share of the machine since the last sample, resident bytes) over the app's processes."""
        for gone in set(self._processes) - set(pids):
            self._processes.pop(gone, None)
            self._process_cpu.pop(gone, None)
        cpu_seconds = 0.0
        measured = False
        rss = 0
        own_read = False
        for pid in pids:
            try:
                process = self._processes.get(pid) or self._processes.setdefault(pid, self._system.Process(pid))
                times = process.cpu_times()
                rss += int(process.memory_info().rss)
            except (self._system.Error, OSError) as error:
                self._processes.pop(pid, None)
                self._process_cpu.pop(pid, None)
                self._tree.forget(pid)
                if pid == pids[0]:
                    self._warn_once("process", f"Cannot read this process's CPU and memory use: {error}")
                continue
            own_read = own_read or pid == pids[0]
            used = float(times.user + times.system)
            previous = self._process_cpu.get(pid)
            self._process_cpu[pid] = used
            if previous is not None:
                cpu_seconds += max(0.0, used - previous)
                measured = True
        if not own_read:
            return None, None
        cpu = None
        if measured and interval is not None and interval > 0:
            cpu = min(100.0, cpu_seconds / (interval * self._cpu_count) * 100)
        return cpu, rss

    def _machine_cpu_percent(self) -> float | None:
        try:
            times = self._system.cpu_times()
        except (self._system.Error, OSError) as error:
            self._warn_once("cpu", f"Cannot read the machine's CPU use: {error}")
            return None
        # Linux counts guest time inside user time too (psutil.cpu_percent leaves it out the same way)
        total = float(sum(times)) - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)
        idle = float(times.idle + getattr(times, "iowait", 0.0))
        previous, self._machine_cpu = self._machine_cpu, (total - idle, total)
        if previous is None or total <= previous[1]:
            return None
        return max(0.0, min(100.0, (total - idle - previous[0]) / (total - previous[1]) * 100))

    def _memory(self) -> tuple[int | None, int | None]:
        try:
            memory = self._system.virtual_memory()
        except (self._system.Error, OSError) as error:
            self._warn_once("ram", f"Cannot read RAM use: {error}")
            return None, None
        return int(memory.total), int(memory.available)

    def _swap(self) -> int | None:
        try:
            return int(self._system.swap_memory().used)
        except (self._system.Error, OSError) as error:
            self._warn_once("swap", f"Cannot read swap use: {error}")
            return None

    def _warn_once(self, what: str, message: str) -> None:
        """An OS reading that fails fails every second: say so once, then quietly report it as not measured."""
        if what not in self._warned:
            self._warned.add(what)
            log.warning("%s", message)
