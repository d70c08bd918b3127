"""Self-calibration: measured VRAM after a load corrects the next plan for the same file."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from app.core.memory.calibration import CalibrationStore, PlanCheck, measure_after_load, model_key
from app.core.memory.hardware import GpuSnapshot, GpuState, HardwareMonitor, HardwareSnapshot, OffloadSupport
from app.core.memory.planner import MIB, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.paths import app_paths
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import GIB


def snapshot(used: int, this_process: int | None, visible: bool = True) -> HardwareSnapshot:
    gpu = GpuSnapshot(0, "GPU", 8 * GIB, used, 8 * GIB - used, 0, this_process, visible)
    return HardwareSnapshot(GpuState.AVAILABLE, "", (gpu,), None, "", OffloadSupport(True))


def test_this_processes_nvml_entry_is_the_measurement() -> None:
    check = measure_after_load(1000 * MIB, snapshot(2 * GIB, 0), snapshot(3 * GIB, 1100 * MIB))
    assert check.measured == 1100 * MIB and check.source == "NVML, this process"
    assert check.error_percent == pytest.approx(-100 / 11)


def test_without_a_process_entry_the_growth_of_used_memory_is_measured() -> None:
    before, after = snapshot(2 * GIB, None, visible=False), snapshot(3 * GIB, None, visible=False)
    check = measure_after_load(900 * MIB, before, after)
    assert check.measured == 1 * GIB and "before and after" in check.source


def test_no_gpu_means_no_measurement_with_the_reason() -> None:
    cpu_only = HardwareSnapshot(GpuState.CPU_ONLY, "No NVIDIA driver found.", (), None)
    check = measure_after_load(100, None, cpu_only)
    assert check == PlanCheck(100, None, reason="No NVIDIA driver found.")
    assert check.error_percent is None


def test_measured_vram_from_the_fake_nvml_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = fake_pynvml.install(monkeypatch, fake_pynvml.one_gpu_with_other_process())
    monitor = HardwareMonitor(offload=OffloadSupport(True))
    before = monitor.snapshot()
    fake.gpus[0].processes[os.getpid()] = 1500 * MIB  # what the load took
    check = measure_after_load(1400 * MIB, before, monitor.snapshot())
    assert check.measured == 1500 * MIB


def test_the_next_plan_for_the_same_file_is_corrected_by_the_measured_error(starter_model: Path) -> None:
    store = CalibrationStore()
    planner = MemoryPlanner(read_gguf_info(starter_model))
    raw = planner.plan(31, 2048).gpu_total
    store.record(starter_model, 31, 2048, planned=raw, measured=raw + 120 * MIB)

    corrected = MemoryPlanner(planner.info, correction=store.correction(starter_model))
    assert corrected.plan(31, 2048).gpu_total == raw + 120 * MIB
    assert store.path.parent == app_paths().data  # kept in the app's data folder
    assert json.loads(store.path.read_text())["models"][model_key(starter_model)][0]["n_gpu_layers"] == 31


def test_the_correction_averages_the_newest_gpu_records_only(tmp_path: Path) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"x" * 10)
    store = CalibrationStore(tmp_path / "cal.json")
    for error in (1000, 10, 20, 30):
        store.record(model, 10, 4096, planned=500, measured=500 + error)
    store.record(model, 0, 4096, planned=0, measured=9999)  # a CPU load says nothing about VRAM
    assert store.correction(model) == 20
    assert store.correction(tmp_path / "other.gguf") == 0


def test_records_follow_the_file_by_name_and_size_not_by_folder(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, moved = tmp_path / "a" / "m.gguf", tmp_path / "b" / "m.gguf"
    first.write_bytes(b"x" * 10)
    moved.write_bytes(b"x" * 10)
    store = CalibrationStore(tmp_path / "cal.json")
    store.record(first, 5, 2048, planned=100, measured=150)
    assert store.correction(moved) == 50


@pytest.mark.expected_log("app.core.memory.calibration", logging.WARNING, "The VRAM calibration file .* cannot be read")
def test_a_damaged_calibration_file_is_set_aside_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_text("{ not json")
    model = tmp_path / "m.gguf"
    model.write_bytes(b"x")
    store = CalibrationStore(path)

    assert store.correction(model) == 0
    store.record(model, 3, 512, planned=1, measured=2)
    assert (tmp_path / "cal.damaged.json").read_text() == "{ not json"
    assert store.correction(model) == 1
