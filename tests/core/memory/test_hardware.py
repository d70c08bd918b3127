"""The hardware monitor: GPUs through a fake NVML with the real API's shape, RAM through psutil."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pynvml
import pytest

from app.core.memory.hardware import GPU_BUILD_INSTALL, GpuState, HardwareMonitor, OffloadSupport, llama_offload_support
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import GIB, MIB, FakeGpu, FakeNvml

CUDA_BUILD = OffloadSupport(True)


def monitor_for(monkeypatch: pytest.MonkeyPatch, fake: FakeNvml) -> HardwareMonitor:
    fake_pynvml.install(monkeypatch, fake)
    return HardwareMonitor(offload=CUDA_BUILD)


def test_the_fake_has_the_real_pynvml_names_and_error_codes() -> None:
    for name in fake_pynvml.FUNCTION_NAMES:
        assert callable(getattr(pynvml, name)), name
    for constant, code in fake_pynvml.ERROR_CODES.items():
        assert getattr(pynvml, constant) == code
    for name in fake_pynvml.ERROR_CLASSES:
        assert issubclass(getattr(pynvml, name), pynvml.NVMLError), name
    assert {f for f, _ in pynvml.c_nvmlMemory_t._fields_} == {"total", "free", "used"}
    assert {f for f, _ in pynvml.c_nvmlUtilization_t._fields_} == {"gpu", "memory"}
    assert {f for f, _ in pynvml.c_nvmlProcessInfo_t._fields_} == set(vars(fake_pynvml.ProcessInfo(1, 2)))


def test_the_fake_errors_map_codes_to_subclasses_like_pynvml() -> None:
    error = fake_pynvml.NVMLError(fake_pynvml.ERROR_CODES["NVML_ERROR_LIBRARY_NOT_FOUND"])
    assert isinstance(error, fake_pynvml.ERROR_CLASSES["NVMLError_LibraryNotFound"])
    real = pynvml.NVMLError(pynvml.NVML_ERROR_LIBRARY_NOT_FOUND)
    assert type(real).__name__ == type(error).__name__
    assert str(error) == "NVML Shared Library Not Found"


def test_no_driver_means_cpu_only_with_a_one_line_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = monitor_for(monkeypatch, fake_pynvml.no_driver()).snapshot()

    assert snapshot.state is GpuState.CPU_ONLY
    assert snapshot.gpus == ()
    assert "No NVIDIA driver" in snapshot.reason and "\n" not in snapshot.reason
    assert snapshot.ram is not None and snapshot.ram.total > 0
    assert not snapshot.can_offload


def test_driver_not_loaded_is_reported_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeNvml(init_error=fake_pynvml.ERROR_CODES["NVML_ERROR_DRIVER_NOT_LOADED"])
    snapshot = monitor_for(monkeypatch, fake).snapshot()
    assert snapshot.state is GpuState.CPU_ONLY
    assert "driver is not loaded" in snapshot.reason


def test_any_other_nvml_error_at_start_is_cpu_only_too(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeNvml(init_error=fake_pynvml.ERROR_CODES["NVML_ERROR_UNKNOWN"])
    snapshot = monitor_for(monkeypatch, fake).snapshot()
    assert snapshot.state is GpuState.CPU_ONLY
    assert "Unknown Error" in snapshot.reason


def test_a_failed_start_is_not_retried_on_every_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_pynvml.no_driver()
    monitor = monitor_for(monkeypatch, fake)
    monitor.snapshot()
    monitor.snapshot()
    assert fake.calls.count("nvmlInit") == 1


def test_one_gpu_splits_used_memory_into_this_app_and_other_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_pynvml.one_gpu_with_other_process(this_app=1 * GIB)
    snapshot = monitor_for(monkeypatch, fake).snapshot()

    assert snapshot.state is GpuState.AVAILABLE and snapshot.reason == ""
    (gpu,) = snapshot.gpus
    assert gpu.name == "NVIDIA GeForce RTX 4060"
    assert (gpu.total, gpu.used, gpu.free) == (8 * GIB, 3 * GIB, 5 * GIB)
    assert gpu.this_process == 1 * GIB
    assert gpu.other_processes == 2 * GIB
    assert gpu.available_to_app == 6 * GIB  # a reload may reuse what this app holds
    assert gpu.utilization_percent == 7
    assert snapshot.driver_version == "550.54.14"
    assert snapshot.can_offload


def test_two_gpus_are_listed_in_order_with_their_own_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = monitor_for(monkeypatch, fake_pynvml.two_gpus()).snapshot()

    assert [gpu.name for gpu in snapshot.gpus] == ["NVIDIA RTX A4000", "NVIDIA GeForce RTX 3060"]
    assert snapshot.total_vram == 28 * GIB
    assert snapshot.gpus[1].utilization_percent is None  # NOT_SUPPORTED becomes "unknown"
    assert snapshot.gpus[0].this_process == 0
    assert snapshot.vram_used_by_app == 0


@pytest.mark.expected_log("app.core.memory.hardware", logging.WARNING, "NVML poll failed: GPU is lost")
def test_nvml_failing_mid_poll_degrades_and_recovers(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_pynvml.one_gpu_with_other_process()
    monitor = monitor_for(monkeypatch, fake)
    assert monitor.snapshot().state is GpuState.AVAILABLE

    fake.lose_gpu()
    degraded = monitor.snapshot()
    assert degraded.state is GpuState.DEGRADED
    assert "GPU is lost" in degraded.reason and "\n" not in degraded.reason
    assert degraded.ram is not None

    fake.recover()
    assert monitor.snapshot().state is GpuState.AVAILABLE


def test_a_bug_during_a_poll_is_raised_not_blamed_on_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_pynvml.one_gpu_with_other_process()
    monitor = monitor_for(monkeypatch, fake)

    def broken(handle: int) -> None:
        raise TypeError("a programming error")

    monkeypatch.setattr(fake.module, "nvmlDeviceGetMemoryInfo", broken)
    with pytest.raises(TypeError, match="a programming error"):
        monitor.snapshot()


def test_a_hidden_process_list_leaves_this_apps_share_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeNvml(gpus=[FakeGpu(processes={os.getpid(): 512 * MIB}, process_list_supported=False)])
    (gpu,) = monitor_for(monkeypatch, fake).snapshot().gpus
    assert gpu.this_process is None and not gpu.processes_visible
    assert gpu.other_processes == gpu.used


def test_no_gpu_listed_by_a_working_driver_is_cpu_only(monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = monitor_for(monkeypatch, FakeNvml(gpus=[])).snapshot()
    assert snapshot.state is GpuState.CPU_ONLY and "no GPU" in snapshot.reason


def test_close_shuts_nvml_down_once(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_pynvml.one_gpu_with_other_process()
    monitor = monitor_for(monkeypatch, fake)
    monitor.snapshot()
    monitor.close()
    monitor.close()
    assert fake.calls.count("nvmlShutdown") == 1 and fake.initialized == 0


def test_ram_includes_this_processes_resident_memory() -> None:
    ram = HardwareMonitor(nvml=fake_pynvml.no_driver().module, offload=CUDA_BUILD).snapshot().ram
    assert ram is not None
    assert 0 < ram.process_rss < ram.total and 0 < ram.available <= ram.total


def test_a_cpu_only_llama_cpp_build_says_how_to_install_a_gpu_build(monkeypatch: pytest.MonkeyPatch) -> None:
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: False)
    support = llama_offload_support()
    assert support.supported is False
    assert 'CMAKE_ARGS="-DGGML_CUDA=on" pip install llama-cpp-python==0.3.36' in support.hint
    assert GPU_BUILD_INSTALL in support.hint


def test_inside_an_installed_bundle_the_cpu_only_hint_offers_no_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: False)
    monkeypatch.setattr("sys.frozen", True, raising=False)
    support = llama_offload_support()
    assert support.supported is False
    assert "pip" not in support.hint
    assert "CPU only" in support.hint and "build Glassbox from source" in support.hint


def test_a_gpu_build_of_llama_cpp_needs_no_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: True)
    assert llama_offload_support() == OffloadSupport(True, "")


def test_the_engine_process_counts_as_this_app_for_vram_and_ram(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model lives in a child process (the engine): its VRAM and memory are the app's, not another program's."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        fake = fake_pynvml.one_gpu_with_other_process()
        fake.gpus[0].processes[child.pid] = 3 * GIB
        monitor = monitor_for(monkeypatch, fake)
        snapshot = monitor.snapshot()
        alone = HardwareMonitor(nvml=fake_pynvml.no_driver().module, pid=child.pid, offload=CUDA_BUILD).snapshot()
    finally:
        child.kill()
        child.wait()
    (gpu,) = snapshot.gpus
    assert gpu.this_process == 3 * GIB and gpu.other_processes == 2 * GIB
    assert snapshot.ram is not None and alone.ram is not None
    assert snapshot.ram.process_rss > alone.ram.process_rss  # this process plus the child
