"""The monitor's sampler in its own thread: a resource sample about once a second, and CSV exports.

The worker adds each sample to the session timeline itself (the timeline is thread-safe),
so the buffer stays complete while the GUI is busy, and tells the GUI with `sampled`.
Writing files runs here too, the CSV and the reply speeds: neither ever stalls the window.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.core.monitor.csv_export import ExportError, export_csv
from app.core.monitor.sampler import ResourceSampler
from app.core.monitor.speed_history import SpeedHistory
from app.core.monitor.timeline import SessionTimeline
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)

SAMPLE_INTERVAL_MS = 1000


class SamplerWorker(QObject):
    sampled = Signal(object)  # ResourceSample, already in the timeline
    exported = Signal(object, int)  # the CSV's path, and how many rows (samples) it holds
    exportFailed = Signal(str)

    startRequested = Signal()
    sampleRequested = Signal()  # a sample now, besides the timer's (after a load, say)
    saveRequested = Signal()  # write the reply speeds recorded since the last save
    exportRequested = Signal(object)  # Path

    def __init__(
        self, sampler: ResourceSampler, timeline: SessionTimeline, history: SpeedHistory, interval_ms: int
    ) -> None:
        super().__init__()
        self._sampler = sampler
        self._timeline = timeline
        self._history = history
        self._interval_ms = interval_ms
        self._timer: QTimer | None = None
        self.startRequested.connect(self._start)
        self.sampleRequested.connect(self._sample)
        self.saveRequested.connect(self._history.save)
        self.exportRequested.connect(self._export)

    @Slot()
    def _start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(self._interval_ms)
        self._timer.timeout.connect(self._sample)
        self._timer.start()
        self._sample()

    @Slot()
    def _sample(self) -> None:
        sample = self._sampler.sample()
        self._timeline.add(sample)
        self.sampled.emit(sample)

    @Slot(object)
    def _export(self, path: Path) -> None:
        try:
            rows = export_csv(self._timeline, path)
        except ExportError as error:
            log.warning("%s", error)
            self.exportFailed.emit(str(error))
            return
        log.info("Monitor timeline exported to %s (%d samples)", path, rows)
        self.exported.emit(path, rows)

    def close(self) -> None:
        """Stop sampling, save the reply speeds, let go of NVML; runs in the worker's thread once its loop has ended."""
        if self._timer is not None:
            self._timer.stop()
        self._history.save()
        self._sampler.close()


class MonitorSampling:
    """The sampler worker in its own thread: connect to the worker's signals, then `start()`."""

    def __init__(
        self,
        sampler: ResourceSampler,
        timeline: SessionTimeline,
        history: SpeedHistory,
        interval_ms: int = SAMPLE_INTERVAL_MS,
    ) -> None:
        self.worker = SamplerWorker(sampler, timeline, history, interval_ms)
        self.thread = WorkerThread(self.worker, "monitor-sampler", on_end=self.worker.close)

    def start(self) -> None:
        self.thread.start()
        self.worker.startRequested.emit()

    def request_stop(self) -> None:
        """Never waits: a sample or an export in progress finishes, then the thread ends."""
        self.thread.request_stop()

    def shutdown(self) -> None:
        self.request_stop()
        self.thread.wait()
