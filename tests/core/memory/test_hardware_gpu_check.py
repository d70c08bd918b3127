"""packaging/gpu_check.py without a GPU: it refuses clearly, and its table logic runs on a fake NVML.

The real check (a CUDA build on an NVIDIA GPU) is run by hand; see the script's docstring.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from app.core.memory.hardware import HardwareMonitor, OffloadSupport
from app.core.memory.planner import MIB
from tests.fakes import fake_pynvml
from tests.repo import REPO_ROOT

SCRIPT = REPO_ROOT / "packaging" / "gpu_check.py"


@pytest.fixture(scope="module")
def gpu_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the script runs
    spec.loader.exec_module(module)
    return module


def test_a_cpu_only_build_is_refused_with_the_install_command(
    gpu_check: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    monitor = HardwareMonitor(nvml=fake_pynvml.two_gpus().module, offload=OffloadSupport(False, "install a CUDA build"))
    assert gpu_check.main([], monitor) == gpu_check.NOT_READY
    assert "install a CUDA build" in capsys.readouterr().err


def test_no_driver_is_refused_with_the_reason(gpu_check: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    monitor = HardwareMonitor(nvml=fake_pynvml.no_driver().module, offload=OffloadSupport(True))
    assert gpu_check.main([], monitor) == gpu_check.NOT_READY
    assert "No GPU to check: No NVIDIA driver found" in capsys.readouterr().err


def test_layers_are_parsed_from_a_list_or_spread_automatically(gpu_check: ModuleType) -> None:
    assert gpu_check.parse_layers("0,8,all", 31) == [0, 8, 31]
    assert gpu_check.parse_layers("99", 31) == [31]
    assert gpu_check.parse_layers("auto", 31) == [0, 7, 15, 23, 31]


def test_the_table_has_one_row_per_setting_with_plan_llama_cpp_and_nvml(
    gpu_check: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str], starter_model: Path
) -> None:
    fake = fake_pynvml.one_gpu_with_other_process(this_app=700 * MIB)
    monitor = HardwareMonitor(nvml=fake.module, pid=os.getpid(), offload=OffloadSupport(True))
    out = tmp_path / "rows.json"

    code = gpu_check.main(["--n-ctx", "512", "--layers", "0,all", "--json", str(out)], monitor)

    assert code == 0
    text = capsys.readouterr().out
    assert "n_gpu_layers | planned MiB" in text and "NVML: NVML, this process" in text
    rows = json.loads(out.read_text())
    assert [row["n_gpu_layers"] for row in rows] == [0, 31]
    assert rows[0]["planned_total"] == 0 and rows[1]["planned_total"] > 0
    assert all(row["nvml_measured"] == 700 * MIB for row in rows)
    assert all(row["llama_device_buffers"] == 0 for row in rows)  # this CPU build keeps every buffer in RAM
