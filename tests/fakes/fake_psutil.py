"""A stand-in for the few `psutil` functions the resource sampler reads, driven by a scenario.

The shapes follow psutil's own named tuples on Linux (`virtual_memory()` with total and
available, `swap_memory()` with used, `cpu_times()` with idle and iowait, a `Process` whose
`cpu_times()` and `memory_info()` give user/system and rss); tests/core/monitor checks the
field names against the real module. Pass `FakePsutil().module` where the sampler takes
`system=`. A test moves the scenario on by changing its fields between samples.
"""

from __future__ import annotations

import types
from collections import namedtuple
from dataclasses import dataclass, field

from tests.fakes.fake_pynvml import GIB, MIB

svmem = namedtuple("svmem", "total available percent used free")
sswap = namedtuple("sswap", "total used free percent sin sout")
scputimes = namedtuple("scputimes", "user nice system idle iowait irq softirq steal guest guest_nice")
pcputimes = namedtuple("pcputimes", "user system children_user children_system iowait")
pmem = namedtuple("pmem", "rss vms shared text lib data dirty")


class Error(Exception):
    """psutil.Error"""


class NoSuchProcess(Error):
    """psutil.NoSuchProcess"""


@dataclass
class FakeProcessState:
    rss: int = 200 * MIB
    cpu_s: float = 0.0  # user + system seconds so far
    ended: bool = False  # the process has exited: reading it raises NoSuchProcess


@dataclass
class FakePsutil:
    total: int = 16 * GIB
    available: int = 8 * GIB
    swap_total: int = 4 * GIB
    swap_used: int = 0
    cores: int = 4
    busy_s: float = 0.0  # the machine's busy seconds so far (all cores)
    idle_s: float = 0.0
    processes: dict[int, FakeProcessState] = field(default_factory=dict)  # pids not listed answer as idle ones

    def __post_init__(self) -> None:
        self.module = self._build_module()

    def advance(self, seconds: float, machine_busy: float, app_cpu: dict[int, float] | None = None) -> None:
        """`seconds` of wall time with the machine `machine_busy` (0–1) busy and each app pid using `app_cpu` cores."""
        self.busy_s += seconds * self.cores * machine_busy
        self.idle_s += seconds * self.cores * (1 - machine_busy)
        for pid, cores in (app_cpu or {}).items():
            self.processes.setdefault(pid, FakeProcessState()).cpu_s += seconds * cores

    def _build_module(self) -> types.ModuleType:
        fake = self
        module = types.ModuleType("psutil")
        module.Error = Error
        module.NoSuchProcess = NoSuchProcess

        def virtual_memory() -> svmem:
            used = fake.total - fake.available
            return svmem(fake.total, fake.available, used / fake.total * 100, used, fake.available)

        def swap_memory() -> sswap:
            free = fake.swap_total - fake.swap_used
            return sswap(fake.swap_total, fake.swap_used, free, fake.swap_used / fake.swap_total * 100, 0, 0)

        def cpu_times() -> scputimes:
            return scputimes(fake.busy_s, 0.0, 0.0, fake.idle_s, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

        def cpu_count() -> int:
            return fake.cores

        class Process:
            def __init__(self, pid: int) -> None:
                self.pid = pid

            def _state(self) -> FakeProcessState:
                state = fake.processes.setdefault(self.pid, FakeProcessState())
                if state.ended:
                    raise NoSuchProcess(f"process no longer exists (pid={self.pid})")
                return state

            def cpu_times(self) -> pcputimes:
                return pcputimes(self._state().cpu_s, 0.0, 0.0, 0.0, 0.0)

            def memory_info(self) -> pmem:
                return pmem(self._state().rss, 0, 0, 0, 0, 0, 0)

        module.virtual_memory = virtual_memory
        module.swap_memory = swap_memory
        module.cpu_times = cpu_times
        module.cpu_count = cpu_count
        module.Process = Process
        return module
