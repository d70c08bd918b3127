"""Planned versus measured VRAM after each load, kept per model file to correct the next plan.

After a model loads with layers on the GPU, NVML tells how much VRAM this process
really holds. The difference to the plan (mostly the CUDA runtime and the compute
buffer, which the planner can only estimate) is stored per model file; the next plan
for that file adds it. Records live in a small JSON file in the app's data folder.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from app.core.memory.hardware import GpuState, HardwareSnapshot
from app.core.paths import app_paths
from app.core.support.atomic import atomic_write

log = logging.getLogger(__name__)

CALIBRATION_FILE = "vram_calibration.json"
SCHEMA_VERSION = 1
KEEP_RECORDS = 10  # per model file
USE_RECORDS = 3  # the correction averages the newest few


@dataclass(frozen=True)
class CalibrationRecord:
    n_gpu_layers: int
    n_ctx: int
    planned: int  # the plan without any correction, bytes
    measured: int  # what NVML measured for this process, bytes
    when: float  # seconds since the epoch

    @property
    def error(self) -> int:
        return self.measured - self.planned


@dataclass(frozen=True)
class PlanCheck:
    """What was planned and what was measured after one load, for the panel."""

    planned: int
    measured: int | None
    source: str = ""  # how `measured` was obtained
    reason: str = ""  # why there is no measurement

    @property
    def error_percent(self) -> float | None:
        if self.measured is None or self.measured == 0:
            return None
        return (self.planned - self.measured) / self.measured * 100


def model_key(model_path: Path) -> str:
    """Identifies a model file by name and size, so a moved or copied file keeps its records."""
    try:
        size = model_path.stat().st_size
    except OSError:
        size = 0
    return f"{model_path.name}:{size}"


def measure_after_load(planned: int, before: HardwareSnapshot | None, after: HardwareSnapshot) -> PlanCheck:
    """Compare a plan with NVML after a load.

    This process's entry in NVML's process list is the measurement. Where NVML cannot
    list processes (no permission, Windows WDDM, a container's PID namespace shows 0), the
    growth of used device memory across the load is used instead.
    """
    if after.state is not GpuState.AVAILABLE or not after.gpus:
        return PlanCheck(planned, None, reason=after.reason or "No GPU to measure.")
    own = after.vram_used_by_app
    if own:
        return PlanCheck(planned, own, source="NVML, this process")
    if before is not None and before.state is GpuState.AVAILABLE and len(before.gpus) == len(after.gpus):
        grown = sum(gpu.used for gpu in after.gpus) - sum(gpu.used for gpu in before.gpus)
        if grown > 0:
            return PlanCheck(planned, grown, source="NVML, device memory used before and after loading")
    return PlanCheck(planned, None, reason="NVML does not show this app's GPU memory on this system.")


class CalibrationStore:
    """Measured-vs-planned records per model file in `<data>/vram_calibration.json`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or app_paths().data / CALIBRATION_FILE

    def record(self, model_path: Path, n_gpu_layers: int, n_ctx: int, planned: int, measured: int) -> CalibrationRecord:
        entry = CalibrationRecord(n_gpu_layers, n_ctx, planned, measured, time.time())
        data = self._read()
        key = model_key(model_path)
        records = data["models"].get(key, [])
        records.append(asdict(entry))
        data["models"][key] = records[-KEEP_RECORDS:]
        self._write(data)
        log.info(
            "VRAM for %s at %d GPU layers: planned %d MiB, measured %d MiB",
            model_path.name,
            n_gpu_layers,
            planned >> 20,
            measured >> 20,
        )
        return entry

    def records(self, model_path: Path) -> list[CalibrationRecord]:
        raw = self._read()["models"].get(model_key(model_path), [])
        records = []
        for item in raw:
            try:
                records.append(CalibrationRecord(**item))
            except TypeError:
                log.warning("Skipping a malformed calibration record for %s: %r", model_path.name, item)
        return records

    def correction(self, model_path: Path) -> int:
        """Bytes to add to the plan's GPU total for this file: the mean error of the newest records."""
        recent = [r for r in self.records(model_path) if r.n_gpu_layers > 0][-USE_RECORDS:]
        return round(statistics.fmean(r.error for r in recent)) if recent else 0

    def _read(self) -> dict:
        empty = {"schema": SCHEMA_VERSION, "models": {}}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return empty
        except (OSError, ValueError) as error:
            self._set_aside(f"cannot be read ({error})")
            return empty
        if (
            not isinstance(data, dict)
            or data.get("schema") != SCHEMA_VERSION
            or not isinstance(data.get("models"), dict)
        ):
            self._set_aside("has an unknown layout")
            return empty
        return data

    def _set_aside(self, why: str) -> None:
        """Keep a damaged file next to the new one instead of overwriting it."""
        aside = self.path.with_suffix(".damaged.json")
        log.warning("The VRAM calibration file %s %s; starting afresh, old file kept as %s", self.path, why, aside.name)
        try:
            os.replace(self.path, aside)
        except OSError as error:
            log.warning("Could not set the calibration file aside: %s", error)

    def _write(self, data: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(data, indent=1))
