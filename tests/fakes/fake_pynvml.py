"""A stand-in for `pynvml` (nvidia-ml-py) with the real module's shape, driven by a scenario.

Function names, return shapes (memory info with total/free/used, utilization with
gpu/memory, process objects with pid/usedGpuMemory/gpuInstanceId/computeInstanceId)
and the error classes (`NVMLError` whose constructor maps a code to a subclass such as
`NVMLError_LibraryNotFound`) follow nvidia-ml-py; `tests/test_hardware.py` checks that
every name here exists in the real module. Install it with `install(monkeypatch, fake)`,
which puts the module into `sys.modules["pynvml"]`.
"""

from __future__ import annotations

import os
import string
import sys
import types
from dataclasses import dataclass, field
from typing import ClassVar

import pytest

GIB = 1024**3
MIB = 1024**2

NVML_SUCCESS = 0
NVML_TEMPERATURE_GPU = 0
ERROR_CODES = {
    "NVML_ERROR_UNINITIALIZED": 1,
    "NVML_ERROR_INVALID_ARGUMENT": 2,
    "NVML_ERROR_NOT_SUPPORTED": 3,
    "NVML_ERROR_NO_PERMISSION": 4,
    "NVML_ERROR_NOT_FOUND": 6,
    "NVML_ERROR_DRIVER_NOT_LOADED": 9,
    "NVML_ERROR_TIMEOUT": 10,
    "NVML_ERROR_LIBRARY_NOT_FOUND": 12,
    "NVML_ERROR_GPU_IS_LOST": 15,
    "NVML_ERROR_UNKNOWN": 999,
}
_MESSAGES = {
    1: "Uninitialized",
    2: "Invalid Argument",
    3: "Not Supported",
    4: "Insufficient Permissions",
    6: "Not Found",
    9: "Driver Not Loaded",
    10: "Timeout",
    12: "NVML Shared Library Not Found",
    15: "GPU is lost",
    999: "Unknown Error",
}


class NVMLError(Exception):
    """Like pynvml.NVMLError: NVMLError(code) builds the subclass for that code."""

    _valClassMapping: ClassVar[dict[int, type]] = {}

    def __new__(cls, value: int) -> NVMLError:
        if cls is NVMLError:
            cls = NVMLError._valClassMapping.get(value, cls)
        obj = Exception.__new__(cls)
        obj.value = value
        return obj

    def __str__(self) -> str:
        return _MESSAGES.get(self.value, f"NVML Error with code {self.value}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NVMLError) and self.value == other.value

    __hash__ = Exception.__hash__


def _error_classes() -> dict[str, type]:
    """NVML_ERROR_GPU_IS_LOST -> NVMLError_GpuIsLost, as pynvml's _extractNVMLErrorsAsClasses does."""
    classes = {}
    for constant, code in ERROR_CODES.items():
        name = "NVMLError_" + string.capwords(constant.replace("NVML_ERROR_", ""), "_").replace("_", "")

        def new(cls: type, *args: object, _code: int = code) -> NVMLError:
            return NVMLError.__new__(cls, _code)

        cls = type(name, (NVMLError,), {"__new__": new})
        NVMLError._valClassMapping[code] = cls
        classes[name] = cls
    return classes


ERROR_CLASSES = _error_classes()


class c_nvmlMemory_t:  # noqa: N801 (the real struct's name)
    def __init__(self, total: int, free: int, used: int) -> None:
        self.total, self.free, self.used = total, free, used


class c_nvmlUtilization_t:  # noqa: N801
    def __init__(self, gpu: int, memory: int) -> None:
        self.gpu, self.memory = gpu, memory


class ProcessInfo:
    """What nvmlStructToFriendlyObject makes of c_nvmlProcessInfo_t."""

    def __init__(self, pid: int, used_gpu_memory: int | None) -> None:
        self.pid = pid
        self.usedGpuMemory = used_gpu_memory
        self.gpuInstanceId = 0xFFFFFFFF
        self.computeInstanceId = 0xFFFFFFFF


@dataclass
class FakeGpu:
    name: str = "NVIDIA GeForce RTX 4060"
    total: int = 8 * GIB
    reserved: int = 300 * MIB  # driver and display, not in any process list
    processes: dict[int, int] = field(default_factory=dict)  # pid -> bytes
    utilization: int | None = 7
    process_list_supported: bool = True
    # Sensors; None: this GPU does not report it (NOT_SUPPORTED), as consumer cards and older GPUs do
    temperature_c: int | None = 45
    power_mw: int | None = 35_000
    energy_mj: int | None = None  # the total-energy counter: Volta and newer only

    @property
    def used(self) -> int:
        return self.reserved + sum(self.processes.values())


@dataclass
class FakeNvml:
    """The scenario: GPUs, an init error code, and a failure to raise from a given poll on."""

    gpus: list[FakeGpu] = field(default_factory=list)
    init_error: int | None = None
    driver_version: str = "550.54.14"
    fail_code: int | None = None  # when set, device queries raise NVMLError(fail_code)
    initialized: int = 0
    calls: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.module = self._build_module()

    # scenario controls
    def lose_gpu(self, code: int = ERROR_CODES["NVML_ERROR_GPU_IS_LOST"]) -> None:
        self.fail_code = code

    def recover(self) -> None:
        self.fail_code = None

    # the pynvml functions
    def _check(self, name: str) -> None:
        self.calls.append(name)
        if not self.initialized:
            raise NVMLError(ERROR_CODES["NVML_ERROR_UNINITIALIZED"])
        if self.fail_code is not None and name != "nvmlShutdown":
            raise NVMLError(self.fail_code)

    def _build_module(self) -> types.ModuleType:
        fake = self
        module = types.ModuleType("pynvml")
        module.__file__ = __file__
        module.NVML_SUCCESS = NVML_SUCCESS
        module.NVML_TEMPERATURE_GPU = NVML_TEMPERATURE_GPU
        for constant, code in ERROR_CODES.items():
            setattr(module, constant, code)
        module.NVMLError = NVMLError
        for name, cls in ERROR_CLASSES.items():
            setattr(module, name, cls)
        module.c_nvmlMemory_t = c_nvmlMemory_t
        module.c_nvmlUtilization_t = c_nvmlUtilization_t

        def nvmlInit() -> None:
            fake.calls.append("nvmlInit")
            if fake.init_error is not None:
                raise NVMLError(fake.init_error)
            fake.initialized += 1

        def nvmlShutdown() -> None:
            fake._check("nvmlShutdown")
            fake.initialized -= 1

        def nvmlSystemGetDriverVersion() -> str:
            fake._check("nvmlSystemGetDriverVersion")
            return fake.driver_version

        def nvmlDeviceGetCount() -> int:
            fake._check("nvmlDeviceGetCount")
            return len(fake.gpus)

        def nvmlDeviceGetHandleByIndex(index: int) -> int:
            fake._check("nvmlDeviceGetHandleByIndex")
            if not 0 <= index < len(fake.gpus):
                raise NVMLError(ERROR_CODES["NVML_ERROR_INVALID_ARGUMENT"])
            return index

        def nvmlDeviceGetName(handle: int) -> str:
            fake._check("nvmlDeviceGetName")
            return fake.gpus[handle].name

        def nvmlDeviceGetMemoryInfo(handle: int, version: int | None = None) -> c_nvmlMemory_t:
            fake._check("nvmlDeviceGetMemoryInfo")
            gpu = fake.gpus[handle]
            return c_nvmlMemory_t(gpu.total, gpu.total - gpu.used, gpu.used)

        def nvmlDeviceGetUtilizationRates(handle: int) -> c_nvmlUtilization_t:
            fake._check("nvmlDeviceGetUtilizationRates")
            gpu = fake.gpus[handle]
            if gpu.utilization is None:
                raise NVMLError(ERROR_CODES["NVML_ERROR_NOT_SUPPORTED"])
            return c_nvmlUtilization_t(gpu.utilization, gpu.utilization // 2)

        def nvmlDeviceGetComputeRunningProcesses(handle: int) -> list[ProcessInfo]:
            fake._check("nvmlDeviceGetComputeRunningProcesses")
            gpu = fake.gpus[handle]
            if not gpu.process_list_supported:
                raise NVMLError(ERROR_CODES["NVML_ERROR_NOT_SUPPORTED"])
            return [ProcessInfo(pid, size) for pid, size in gpu.processes.items()]

        def nvmlDeviceGetGraphicsRunningProcesses(handle: int) -> list[ProcessInfo]:
            fake._check("nvmlDeviceGetGraphicsRunningProcesses")
            if not fake.gpus[handle].process_list_supported:
                raise NVMLError(ERROR_CODES["NVML_ERROR_NOT_SUPPORTED"])
            return []

        def sensor(name: str, value: int | None) -> int:
            fake._check(name)
            if value is None:
                raise NVMLError(ERROR_CODES["NVML_ERROR_NOT_SUPPORTED"])
            return value

        def nvmlDeviceGetTemperature(handle: int, sensor_type: int) -> int:
            if sensor_type != NVML_TEMPERATURE_GPU:
                raise NVMLError(ERROR_CODES["NVML_ERROR_INVALID_ARGUMENT"])
            return sensor("nvmlDeviceGetTemperature", fake.gpus[handle].temperature_c)

        def nvmlDeviceGetPowerUsage(handle: int) -> int:
            return sensor("nvmlDeviceGetPowerUsage", fake.gpus[handle].power_mw)

        def nvmlDeviceGetTotalEnergyConsumption(handle: int) -> int:
            return sensor("nvmlDeviceGetTotalEnergyConsumption", fake.gpus[handle].energy_mj)

        for function in (
            nvmlInit,
            nvmlShutdown,
            nvmlSystemGetDriverVersion,
            nvmlDeviceGetCount,
            nvmlDeviceGetHandleByIndex,
            nvmlDeviceGetName,
            nvmlDeviceGetMemoryInfo,
            nvmlDeviceGetUtilizationRates,
            nvmlDeviceGetComputeRunningProcesses,
            nvmlDeviceGetGraphicsRunningProcesses,
            nvmlDeviceGetTemperature,
            nvmlDeviceGetPowerUsage,
            nvmlDeviceGetTotalEnergyConsumption,
        ):
            setattr(module, function.__name__, function)
        return module


FUNCTION_NAMES = (
    "nvmlInit",
    "nvmlShutdown",
    "nvmlSystemGetDriverVersion",
    "nvmlDeviceGetCount",
    "nvmlDeviceGetHandleByIndex",
    "nvmlDeviceGetName",
    "nvmlDeviceGetMemoryInfo",
    "nvmlDeviceGetUtilizationRates",
    "nvmlDeviceGetComputeRunningProcesses",
    "nvmlDeviceGetGraphicsRunningProcesses",
    "nvmlDeviceGetTemperature",
    "nvmlDeviceGetPowerUsage",
    "nvmlDeviceGetTotalEnergyConsumption",
)


def install(monkeypatch: pytest.MonkeyPatch, fake: FakeNvml) -> FakeNvml:
    """Make `import pynvml` return the fake for the rest of the test."""
    monkeypatch.setitem(sys.modules, "pynvml", fake.module)
    return fake


# Ready-made scenarios from the issue.
def no_driver() -> FakeNvml:
    return FakeNvml(init_error=ERROR_CODES["NVML_ERROR_LIBRARY_NOT_FOUND"])


def one_gpu_with_other_process(this_app: int = 0) -> FakeNvml:
    """One 8 GiB GPU; another program holds 2 GiB; this app holds `this_app` bytes."""
    processes = {4242: 2 * GIB}
    if this_app:
        processes[os.getpid()] = this_app
    return FakeNvml(gpus=[FakeGpu(total=8 * GIB, reserved=0, processes=processes)])


def two_gpus() -> FakeNvml:
    return FakeNvml(
        gpus=[
            FakeGpu(name="NVIDIA RTX A4000", total=16 * GIB, processes={4242: 1 * GIB}, utilization=30),
            FakeGpu(name="NVIDIA GeForce RTX 3060", total=12 * GIB, processes={}, utilization=None),
        ]
    )
