"""A whole machine for the monitor's tests: a clock the test moves, a fixed process tree, fake psutil and NVML.

`FakeMachine` puts the window's process (this test's pid) and a pretend engine child
(ENGINE_PID) together, so a test can give the engine VRAM, RAM and CPU time and see them
counted as the app's, and move time on by hand instead of sleeping.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from app.core.memory.hardware import HardwareMonitor, OffloadSupport
from app.core.memory.process_tree import ProcessTree
from app.core.monitor.clock import SessionClock
from app.core.monitor.sampler import ResourceSampler
from tests.fakes.fake_psutil import FakePsutil
from tests.fakes.fake_pynvml import GIB, FakeGpu, FakeNvml

ENGINE_PID = 987_654  # the pretend engine child (never a real process in the fake psutil)
OTHER_PID = 4242  # another program on the GPU


class ManualClock:
    """Monotonic and wall time that move only when the test says so."""

    def __init__(self, start: float = 1000.0, wall: float = 1_700_000_000.0) -> None:
        self.now = start
        self.wall_start = wall
        self._start = start

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.wall_start + (self.now - self._start)

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FixedTree(ProcessTree):
    """The app's processes as the test sets them (a real ProcessTree would list this test's real children)."""

    def __init__(self, children: tuple[int, ...] = (ENGINE_PID,)) -> None:
        super().__init__()
        self.fixed_children = children
        self.forgotten: list[int] = []

    def pids(self) -> tuple[int, ...]:
        return (self.pid, *self.fixed_children)

    def forget(self, pid: int) -> None:
        self.forgotten.append(pid)


@dataclass
class FakeMachine:
    gpus: list[FakeGpu] = field(default_factory=lambda: [FakeGpu(total=8 * GIB, reserved=0)])
    children: tuple[int, ...] = (ENGINE_PID,)

    def __post_init__(self) -> None:
        self.clock = ManualClock()
        self.session = SessionClock(self.clock.monotonic, self.clock.wall)
        self.nvml = FakeNvml(gpus=self.gpus)
        self.system = FakePsutil()
        self.tree = FixedTree(self.children)
        self.window_pid = os.getpid()

    @property
    def gpu(self) -> FakeGpu:
        return self.nvml.gpus[0]

    def sampler(self) -> ResourceSampler:
        """A sampler of this machine; its llama.cpp build can offload (a GPU build)."""
        hardware = HardwareMonitor(nvml=self.nvml.module, offload=OffloadSupport(True))
        return ResourceSampler(self.session, hardware, tree=self.tree, system=self.system.module)

    def tick(self, seconds: float = 1.0, machine_busy: float = 0.25) -> None:
        """Time passes: the clock moves, and the machine's CPU is `machine_busy` busy meanwhile."""
        self.clock.advance(seconds)
        self.system.advance(seconds, machine_busy)

    def set_vram(self, app: int = 0, others: int = 0, gpu: int = 0) -> None:
        """What the engine and another program hold on a GPU."""
        processes = self.nvml.gpus[gpu].processes
        processes.clear()
        if app:
            processes[ENGINE_PID] = app
        if others:
            processes[OTHER_PID] = others
