"""The hardware poller: VRAM and RAM about once a second, model headers, and the check after a load.

One `HardwareWorker` in its own thread (the one wrapper in app.ui.threads) does everything
that reads the hardware or the disk for the GPU panel, and answers with signals.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.core.memory.calibration import CalibrationStore, PlanCheck, measure_after_load
from app.core.memory.hardware import HardwareMonitor, HardwareSnapshot
from app.core.models.gguf_info import GgufInfo, GgufInfoError, read_gguf_info
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)

POLL_INTERVAL_MS = 1000


@dataclass(frozen=True)
class ModelMemory:
    """A model file's header and this machine's calibration for it."""

    path: Path
    info: GgufInfo
    correction: int


@dataclass(frozen=True)
class MeasureRequest:
    model_path: Path
    n_gpu_layers: int
    n_ctx: int
    planned: int  # the plan shown, with calibration
    planned_raw: int  # the same plan without calibration (what the record compares against)
    before: HardwareSnapshot | None


@dataclass(frozen=True)
class MeasuredLoad:
    request: MeasureRequest
    check: PlanCheck
    correction: int  # the file's correction after this measurement


class HardwareWorker(QObject):
    """Polls the hardware monitor, reads model headers, measures loads; lives in its own thread."""

    snapshotReady = Signal(object)  # HardwareSnapshot
    modelReady = Signal(object)  # ModelMemory
    modelFailed = Signal(str)
    loadMeasured = Signal(object)  # MeasuredLoad

    startRequested = Signal()
    modelRequested = Signal(object)  # Path
    measureRequested = Signal(object)  # MeasureRequest

    def __init__(self, monitor: HardwareMonitor, calibration: CalibrationStore, interval_ms: int) -> None:
        super().__init__()
        self._monitor = monitor
        self._calibration = calibration
        self._interval_ms = interval_ms
        self._timer: QTimer | None = None
        self.startRequested.connect(self._start)
        self.modelRequested.connect(self._read_model)
        self.measureRequested.connect(self._measure)

    @Slot()
    def _start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(self._interval_ms)
        self._timer.timeout.connect(self._poll)
        self._timer.start()
        self._poll()

    def close(self) -> None:
        """Stop polling and let go of NVML; runs in the poller's thread once its event loop has ended."""
        if self._timer is not None:
            self._timer.stop()
        self._monitor.close()

    @Slot()
    def _poll(self) -> None:
        self.snapshotReady.emit(self._monitor.snapshot())

    @Slot(object)
    def _read_model(self, path: Path) -> None:
        try:
            info = read_gguf_info(path)
        except GgufInfoError as error:
            log.warning("GPU panel cannot plan for %s: %s", path, error)
            self.modelFailed.emit(str(error))
            return
        self.modelReady.emit(ModelMemory(path, info, self._correction(path)))

    @Slot(object)
    def _measure(self, request: MeasureRequest) -> None:
        after = self._monitor.snapshot()
        self.snapshotReady.emit(after)
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


class HardwarePoller:
    """The hardware worker in its own thread: connect to the worker's signals, then `start()`."""

    def __init__(
        self, monitor: HardwareMonitor, calibration: CalibrationStore, interval_ms: int = POLL_INTERVAL_MS
    ) -> None:
        self.worker = HardwareWorker(monitor, calibration, interval_ms)
        self.thread = WorkerThread(self.worker, "hardware-poller", on_end=self.worker.close)

    def start(self) -> None:
        self.thread.start()
        self.worker.startRequested.emit()

    def request_stop(self) -> None:
        """Never waits: a poll or a header read in progress finishes, then the thread ends."""
        self.thread.request_stop()

    def shutdown(self) -> None:
        self.request_stop()
        self.thread.wait()
