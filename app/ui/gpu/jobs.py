"""The GPU panel's disk work: model headers, and the check of a load against what was measured after it.

One `GpuJobsWorker` in its own thread (the one wrapper in app.ui.threads) reads the model
files' headers and the VRAM calibration, and answers with signals. It never reads the
hardware: the window's one sampler (app.ui.hardware_sampling) does, and the panel hands
it the first snapshot taken after a load.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.core.memory.calibration import CalibrationStore, PlanCheck, measure_after_load
from app.core.memory.hardware import HardwareSnapshot
from app.core.models.gguf_info import GgufInfo, GgufInfoError, read_gguf_info
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelMemory:
    """A model file's header and this machine's calibration for it."""

    path: Path
    info: GgufInfo
    correction: int
    mmproj: Path | None = None  # the projector file read with it
    projector: GgufInfo | None = None  # that projector's header (None: no projector)


@dataclass(frozen=True)
class MeasureRequest:
    model_path: Path
    n_gpu_layers: int
    n_ctx: int
    planned: int  # the plan shown, with calibration
    planned_raw: int  # the same plan without calibration (what the record compares against)
    before: HardwareSnapshot | None
    asked_at: float  # session seconds when the measurement was asked for, after the load: a sample from then on


@dataclass(frozen=True)
class MeasuredLoad:
    request: MeasureRequest
    check: PlanCheck
    correction: int  # the file's correction after this measurement


class GpuJobsWorker(QObject):
    """Reads model headers and measures loads; lives in its own thread."""

    modelReady = Signal(object)  # ModelMemory
    modelFailed = Signal(str)
    loadMeasured = Signal(object)  # MeasuredLoad

    modelRequested = Signal(object, object)  # the model's Path, its projector's Path or None
    measureRequested = Signal(object, object)  # MeasureRequest, the HardwareSnapshot taken after the load

    def __init__(self, calibration: CalibrationStore) -> None:
        super().__init__()
        self._calibration = calibration
        self.modelRequested.connect(self._read_model)
        self.measureRequested.connect(self._measure)

    @Slot(object, object)
    def _read_model(self, path: Path, mmproj: Path | None) -> None:
        try:
            info = read_gguf_info(path)
            projector = read_gguf_info(mmproj) if mmproj is not None else None
        except GgufInfoError as error:
            log.warning("GPU panel cannot plan for %s: %s", path, error)
            self.modelFailed.emit(str(error))
            return
        self.modelReady.emit(ModelMemory(path, info, self._correction(path), mmproj, projector))

    @Slot(object, object)
    def _measure(self, request: MeasureRequest, after: HardwareSnapshot) -> None:
        check = measure_after_load(request.planned, request.before, after)
        if check.measured is not None:
            try:
                self._calibration.record(
                    request.model_path, request.n_gpu_layers, request.n_ctx, request.planned_raw, check.measured
                )
            except OSError as error:
                log.warning("Could not save the VRAM calibration: %s", error)
        self.loadMeasured.emit(MeasuredLoad(request, check, self._correction(request.model_path)))

    def _correction(self, path: Path) -> int:
        try:
            return self._calibration.correction(path)
        except OSError as error:
            log.warning("Could not read the VRAM calibration: %s", error)
            return 0


class GpuJobs:
    """The GPU panel's worker in its own thread: connect to the worker's signals, then `start()`."""

    def __init__(self, calibration: CalibrationStore) -> None:
        self.worker = GpuJobsWorker(calibration)
        self.thread = WorkerThread(self.worker, "gpu-panel-jobs")

    def start(self) -> None:
        self.thread.start()

    def request_stop(self) -> None:
        """Never waits: a header read or a measurement in progress finishes, then the thread ends."""
        self.thread.request_stop()

    def shutdown(self) -> None:
        self.request_stop()
        self.thread.wait()
