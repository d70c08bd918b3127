"""The resource sampler: the app is the window's process and the engine child, CPU from time deltas, GPU sensors."""

from __future__ import annotations

import logging

import psutil
import pytest

from app.core.memory.hardware import GpuState, HardwareMonitor, RamSnapshot
from app.core.monitor.clock import SessionClock
from app.core.monitor.sampler import ResourceSampler
from tests.fakes import fake_psutil, fake_pynvml
from tests.fakes.fake_machine import ENGINE_PID, FakeMachine
from tests.fakes.fake_psutil import FakeProcessState
from tests.fakes.fake_pynvml import GIB, MIB, FakeGpu


def test_the_fake_psutil_has_the_real_field_names() -> None:
    assert set(fake_psutil.svmem._fields) <= set(psutil.virtual_memory()._fields)
    assert set(fake_psutil.sswap._fields) <= set(psutil.swap_memory()._fields)
    assert {"user", "system", "idle", "iowait", "guest", "guest_nice"} <= set(psutil.cpu_times()._fields)
    assert {"user", "system"} <= set(psutil.Process().cpu_times()._fields)
    assert "rss" in psutil.Process().memory_info()._fields


def test_cpu_use_is_measured_between_samples_over_the_window_and_the_engine() -> None:
    machine = FakeMachine()
    sampler = machine.sampler()
    first = sampler.sample()
    assert first.cpu_app_percent is None and first.cpu_total_percent is None  # no interval yet

    machine.clock.advance(1.0)
    machine.system.advance(1.0, machine_busy=0.75, app_cpu={machine.window_pid: 0.5, ENGINE_PID: 1.5})
    second = sampler.sample()

    assert second.t == pytest.approx(1.0)
    assert second.cpu_total_percent == pytest.approx(75.0)
    assert second.cpu_app_percent == pytest.approx(50.0)  # two of the four cores


def test_ram_of_the_app_adds_up_the_window_and_the_engine_and_reads_swap() -> None:
    machine = FakeMachine()
    machine.system.processes[machine.window_pid] = FakeProcessState(rss=300 * MIB)
    machine.system.processes[ENGINE_PID] = FakeProcessState(rss=2 * GIB)
    machine.system.available = 3 * GIB
    machine.system.swap_used = 512 * MIB

    sample = machine.sampler().sample()

    assert sample.ram_app == 2 * GIB + 300 * MIB
    assert (sample.ram_total, sample.ram_available, sample.swap_used) == (16 * GIB, 3 * GIB, 512 * MIB)
    assert sample.ram_available_percent == pytest.approx(3 / 16 * 100)
    assert sample.window_pid == machine.window_pid and sample.child_pids == (ENGINE_PID,)


def test_vram_held_by_the_engine_is_the_apps_and_sensors_come_along() -> None:
    machine = FakeMachine(
        gpus=[FakeGpu(total=8 * GIB, reserved=0, temperature_c=66, power_mw=150_000, energy_mj=5_000)]
    )
    machine.set_vram(app=3 * GIB, others=1 * GIB)

    sample = machine.sampler().sample()

    assert sample.gpu_state is GpuState.AVAILABLE
    (gpu,) = sample.gpus
    assert (gpu.this_process, gpu.other_processes, gpu.used) == (3 * GIB, 1 * GIB, 4 * GIB)
    assert gpu.used_percent == pytest.approx(50.0)
    assert (gpu.temperature_c, gpu.power_w, gpu.energy_j) == (66, 150.0, 5.0)
    assert sample.vram_app == 3 * GIB


def test_a_gpu_without_sensors_reports_them_as_not_measured() -> None:
    machine = FakeMachine(gpus=[FakeGpu(temperature_c=None, power_mw=None, energy_mj=None, utilization=None)])
    (gpu,) = machine.sampler().sample().gpus
    assert (gpu.utilization_percent, gpu.temperature_c, gpu.power_w, gpu.energy_j) == (None, None, None, None)


def test_the_gpu_panels_snapshot_is_made_from_the_samples_own_reading() -> None:
    machine = FakeMachine()
    machine.set_vram(app=1 * GIB, others=2 * GIB)
    machine.system.processes[machine.window_pid] = FakeProcessState(rss=300 * MIB)
    machine.system.processes[ENGINE_PID] = FakeProcessState(rss=2 * GIB)

    sample = machine.sampler().sample()

    hardware = sample.hardware
    assert (hardware.state, hardware.reason) == (sample.gpu_state, sample.gpu_reason) == (GpuState.AVAILABLE, "")
    (gpu,) = hardware.gpus
    assert (gpu.total, gpu.used, gpu.free, gpu.this_process) == (8 * GIB, 3 * GIB, 5 * GIB, 1 * GIB)
    assert (gpu.temperature_c, gpu.power_w) == (sample.gpus[0].temperature_c, sample.gpus[0].power_w)
    assert hardware.ram == RamSnapshot(16 * GIB, 8 * GIB, 2 * GIB + 300 * MIB) and sample.ram_app == 2 * GIB + 300 * MIB
    assert hardware.driver_version == "550.54.14" and hardware.can_offload


def test_without_a_driver_the_sample_has_no_gpus_and_says_why() -> None:
    machine = FakeMachine()
    sampler = ResourceSampler(
        machine.session,
        HardwareMonitor(nvml=fake_pynvml.no_driver().module),
        tree=machine.tree,
        system=machine.system.module,
    )
    sample = sampler.sample()
    assert sample.gpu_state is GpuState.CPU_ONLY and sample.gpus == ()
    assert "No NVIDIA driver" in sample.gpu_reason


def test_an_engine_that_has_ended_is_left_out_and_listed_again() -> None:
    machine = FakeMachine()
    machine.system.processes[machine.window_pid] = FakeProcessState(rss=100 * MIB)
    sampler = machine.sampler()
    sampler.sample()

    machine.system.processes[ENGINE_PID].ended = True
    sample = sampler.sample()

    assert sample.ram_app == 100 * MIB
    assert machine.tree.forgotten == [ENGINE_PID]


@pytest.mark.expected_log("app.core.monitor.sampler", logging.WARNING, r"Cannot read swap use: no swap here")
def test_a_reading_the_os_refuses_is_not_measured_and_said_once() -> None:
    machine = FakeMachine()

    def no_swap() -> object:
        raise fake_psutil.Error("no swap here")

    machine.system.module.swap_memory = no_swap
    sampler = machine.sampler()
    assert sampler.sample().swap_used is None
    assert sampler.sample().swap_used is None  # the log line above came once


def test_the_real_machine_gives_a_plausible_sample() -> None:
    sampler = ResourceSampler(SessionClock(), HardwareMonitor(nvml=fake_pynvml.no_driver().module))
    sampler.sample()
    sum(i * i for i in range(200_000))  # some CPU time for this process between the samples
    sample = sampler.sample()
    sampler.close()

    assert sample.ram_total is not None and sample.ram_available is not None
    assert 0 < sample.ram_available <= sample.ram_total
    assert sample.ram_app is not None and sample.ram_app > 0
    assert sample.cpu_total_percent is not None and 0 <= sample.cpu_total_percent <= 100
    assert sample.cpu_app_percent is not None and 0 <= sample.cpu_app_percent <= 100
