"""The hardware monitor counts the engine's child process as the app's, and reads GPU sensors when asked."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import psutil
import pynvml
import pytest

from app.core.memory.hardware import GpuState, HardwareMonitor, OffloadSupport
from app.core.memory.process_tree import ProcessTree
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import GIB, FakeGpu, FakeNvml


@pytest.fixture
def child() -> Iterator[subprocess.Popen[bytes]]:
    """A child process of the test, standing in for the engine process."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield process
    process.kill()
    process.wait()


def test_the_fake_sensors_have_the_real_pynvml_names() -> None:
    assert fake_pynvml.NVML_TEMPERATURE_GPU == pynvml.NVML_TEMPERATURE_GPU
    for name in ("nvmlDeviceGetTemperature", "nvmlDeviceGetPowerUsage", "nvmlDeviceGetTotalEnergyConsumption"):
        assert name in fake_pynvml.FUNCTION_NAMES and callable(getattr(pynvml, name))


def test_vram_held_by_the_engine_child_counts_as_this_apps(child: subprocess.Popen[bytes]) -> None:
    fake = FakeNvml(gpus=[FakeGpu(total=8 * GIB, reserved=0, processes={child.pid: 3 * GIB, 4242: 1 * GIB})])
    monitor = HardwareMonitor(nvml=fake.module, offload=OffloadSupport(True))

    (gpu,) = monitor.snapshot().gpus

    assert gpu.this_process == 3 * GIB
    assert gpu.other_processes == 1 * GIB


def test_ram_of_this_app_includes_the_engine_childs_resident_memory(child: subprocess.Popen[bytes]) -> None:
    monitor = HardwareMonitor(nvml=fake_pynvml.no_driver().module, offload=OffloadSupport(False))
    own = psutil.Process().memory_info().rss
    ram = monitor.snapshot().ram

    assert ram is not None
    assert ram.process_rss >= own + psutil.Process(child.pid).memory_info().rss // 2


def test_the_process_tree_lists_this_process_first_then_its_children(child: subprocess.Popen[bytes]) -> None:
    pids = ProcessTree().pids()
    assert pids[0] == os.getpid() and child.pid in pids[1:]


def test_a_child_that_ended_is_dropped_from_the_tree_at_the_next_ask(child: subprocess.Popen[bytes]) -> None:
    tree = ProcessTree(refresh_s=3600)
    assert child.pid in tree.children()
    child.kill()
    child.wait()
    assert child.pid not in tree.children()


def test_sensors_are_read_only_when_asked_and_none_where_unsupported() -> None:
    fake = FakeNvml(
        gpus=[
            FakeGpu(temperature_c=71, power_mw=212_500, energy_mj=9_000_000),
            FakeGpu(temperature_c=None, power_mw=None, energy_mj=None),
        ]
    )
    monitor = HardwareMonitor(nvml=fake.module, offload=OffloadSupport(True))

    plain = monitor.snapshot()
    assert "nvmlDeviceGetPowerUsage" not in fake.calls
    assert plain.gpus[0].temperature_c is None

    reading = monitor.read_gpus(sensors=True)
    assert reading.state is GpuState.AVAILABLE
    first, second = reading.gpus
    assert (first.temperature_c, first.power_w, first.energy_j) == (71, 212.5, 9000.0)
    assert (second.temperature_c, second.power_w, second.energy_j) == (None, None, None)
