"""The Monitor's file work in its own thread: CSV exports and the reply speeds, so neither ever stalls the window.

The samples come from the window's one hardware sampler (app.ui.hardware_sampling); this
thread only writes what the panel has gathered.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.core.monitor.csv_export import ExportError, export_csv
from app.core.monitor.speed_history import SpeedHistory
from app.core.monitor.timeline import SessionTimeline
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)


class FilesWorker(QObject):
    exported = Signal(object, int)  # the CSV's path, and how many rows (samples) it holds
    exportFailed = Signal(str)

    saveRequested = Signal()  # write the reply speeds recorded since the last save
    exportRequested = Signal(object)  # Path

    def __init__(self, timeline: SessionTimeline, history: SpeedHistory) -> None:
        super().__init__()
        self._timeline = timeline
        self._history = history
        self.saveRequested.connect(self._history.save)
        self.exportRequested.connect(self._export)

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
        """Save the reply speeds; runs in the worker's thread once its loop has ended."""
        self._history.save()


class MonitorFiles:
    """The files worker in its own thread: connect to the worker's signals, then `start()`."""

    def __init__(self, timeline: SessionTimeline, history: SpeedHistory) -> None:
        self.worker = FilesWorker(timeline, history)
        self.thread = WorkerThread(self.worker, "monitor-files", on_end=self.worker.close)

    def start(self) -> None:
        self.thread.start()

    def request_stop(self) -> None:
        """Never waits: an export in progress finishes, then the thread ends."""
        self.thread.request_stop()

    def shutdown(self) -> None:
        self.request_stop()
        self.thread.wait()
