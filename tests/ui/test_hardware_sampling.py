"""The window's one hardware sampler: one reading of the machine a tick, and that same sample for the
GPU offload panel, the Monitor panel and the Monitor's alerts.

The machine is the fake one (fake psutil and NVML, a clock the test moves); the sampler
samples when the test asks, so each tick is one the test took.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.core.memory.calibration import CalibrationStore
from app.core.memory.hardware import GpuState
from app.core.monitor.alerts import AlertChange
from app.core.monitor.samples import ResourceSample
from app.core.monitor.speed_history import SpeedHistory
from app.ui.gpu.panel import GpuPanel
from app.ui.hardware_sampling import HardwareSampling
from app.ui.monitor.panel import MonitorPanel
from app.ui.state_signals import StateSignals
from app.ui.threads import running_threads
from tests.fakes.fake_machine import FakeMachine
from tests.fakes.fake_pynvml import GIB

NEVER_MS = 3_600_000  # the timer's interval: the test takes the samples itself


class Rig:
    """One sampler, its three consumers, and what each reading of the fake machine cost."""

    def __init__(self, qtbot: QtBot) -> None:
        self.qtbot = qtbot
        self.machine = FakeMachine()
        self.machine.set_vram(app=1 * GIB, others=2 * GIB)
        self.ram_reads = 0
        read_ram = self.machine.system.module.virtual_memory

        def counted_ram_read() -> object:
            self.ram_reads += 1
            return read_ram()

        self.machine.system.module.virtual_memory = counted_ram_read
        self.sampling = HardwareSampling(self.machine.sampler(), interval_ms=NEVER_MS)
        self.gpu_panel = GpuPanel(self.sampling, calibration=CalibrationStore())
        self.monitor = MonitorPanel(StateSignals(), self.sampling, history=SpeedHistory())
        qtbot.addWidget(self.gpu_panel)
        qtbot.addWidget(self.monitor)
        self.alerts_saw: list[ResourceSample] = []  # every sample the alert rules were given
        observe = self.monitor.alerts.observe_sample

        def observed(sample: ResourceSample) -> list[AlertChange]:
            self.alerts_saw.append(sample)
            return observe(sample)

        self.monitor.alerts.observe_sample = observed  # type: ignore[method-assign]
        with qtbot.waitSignal(self.monitor.sampled, timeout=5000):  # the first sample comes at the start
            self.sampling.start()

    def tick(self) -> ResourceSample:
        """A second passes and the sampler takes one sample, which every consumer has handled on return."""
        self.machine.tick()
        with self.qtbot.waitSignal(self.monitor.sampled, timeout=5000) as handled:
            self.sampling.sample_now()
        sample = handled.args[0]
        assert isinstance(sample, ResourceSample)
        return sample

    def close(self) -> None:
        self.sampling.shutdown()
        self.gpu_panel.shutdown()
        self.monitor.shutdown()


@pytest.fixture
def rig(qtbot: QtBot) -> Iterator[Rig]:
    made = Rig(qtbot)
    yield made
    made.close()


def test_one_tick_reads_the_hardware_once_and_every_consumer_gets_that_sample(rig: Rig) -> None:
    rig.machine.nvml.calls.clear()
    rig.ram_reads = 0

    sample = rig.tick()

    calls = rig.machine.nvml.calls
    assert calls.count("nvmlDeviceGetCount") == 1 and calls.count("nvmlDeviceGetMemoryInfo") == 1  # one GPU, once
    assert rig.ram_reads == 1
    assert rig.gpu_panel.snapshot is sample.hardware
    assert rig.monitor.timeline.latest is sample
    assert rig.alerts_saw[-1] is sample
    # what the user reads in both panels is that one reading
    assert rig.gpu_panel.gpu_bars[0].caption.startswith("GPU 0: this app 1.00 GiB · others 2.00 GiB")
    assert "GPU 0: 3.00 GiB of 8.00 GiB VRAM (Glassbox 1.00 GiB)" in rig.monitor.status_label.text()


@pytest.mark.expected_log("app.core.memory.hardware", logging.WARNING, "NVML poll failed: GPU is lost")
@pytest.mark.expected_log("app.core.monitor.alerts", logging.WARNING, r"GPU 0 .* VRAM is 95 % full")
def test_a_failing_read_reaches_every_consumer_as_its_own_error_state_and_all_recover(rig: Rig) -> None:
    rig.machine.set_vram(others=int(7.6 * GIB))
    rig.tick()
    rig.tick()
    (vram_alert,) = rig.monitor.alerts.active()

    rig.machine.nvml.lose_gpu()
    lost = rig.tick()

    assert lost.gpu_state is GpuState.DEGRADED and "GPU is lost" in lost.gpu_reason
    assert "stopped answering" in rig.gpu_panel.status_label.text() and rig.gpu_panel.gpu_bars == []
    assert rig.gpu_panel.slider.isVisibleTo(rig.gpu_panel)  # a GPU that stopped answering keeps its controls
    assert "stopped answering" in rig.monitor.status_label.text()
    assert rig.alerts_saw[-1] is lost
    assert rig.monitor.alerts.active() == [vram_alert]  # no reading is no verdict: the alert neither ends nor repeats

    rig.machine.nvml.recover()
    back = rig.tick()
    assert back.gpu_state is GpuState.AVAILABLE and rig.alerts_saw[-1] is back
    assert len(rig.gpu_panel.gpu_bars) == 1 and "stopped answering" not in rig.gpu_panel.status_label.text()
    assert "GPU 0: 7.60 GiB of 8.00 GiB VRAM" in rig.monitor.status_label.text()


def test_closing_the_sampler_ends_its_thread_and_lets_go_of_nvml(rig: Rig) -> None:
    assert "hardware-sampler" in running_threads()

    rig.sampling.shutdown()

    assert "hardware-sampler" not in running_threads()
    assert rig.machine.nvml.initialized == 0 and rig.machine.nvml.calls[-1] == "nvmlShutdown"
