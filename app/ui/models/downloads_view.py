"""The Downloads tab: the queue with a progress bar, speed, time left and Pause/Resume/Cancel per file.

The jobs run on their own threads in `DownloadManager`; this page only reads their
snapshots on a timer, a few times a second.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.hub.client import TOKEN_KINDS
from app.core.hub.downloads.job import JobSnapshot, JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.support.formatting import format_bytes
from app.ui.widgets.core_text import word
from app.ui.widgets.tables import read_only_item

REFRESH_MS = 250
_COLUMNS = 6  # file, repository, progress, speed, time left, status; then the buttons
_BAR_STEPS = 1000
_TOKEN_KIND_VALUES = frozenset(kind.value for kind in TOKEN_KINDS)  # a job's error_kind is the kind's value


def format_eta(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds} s"


class _JobButtons(QWidget):
    def __init__(self, page: DownloadsPage, job_id: str) -> None:
        super().__init__(page.table)
        self.toggle = QToolButton(self)
        self.toggle.clicked.connect(lambda: page.toggle(job_id))
        self.cancel = QToolButton(self)
        self.cancel.setText(self.tr("Cancel"))
        self.cancel.setToolTip(self.tr("Stop and delete the partial file"))
        self.cancel.clicked.connect(lambda: page.cancel(job_id))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.cancel)


class DownloadsPage(QWidget):
    installed = Signal(object)  # Path of a model file that was just verified and installed
    failed = Signal(object)  # (str) message of a download that just failed
    needsToken = Signal()  # a download failed for want of a (better) Hugging Face token

    def __init__(self, manager: DownloadManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.manager = manager
        self._rows: dict[str, int] = {}
        self._reported: dict[str, JobState] = {}

        self.table = QTableWidget(0, _COLUMNS + 1, self)
        self.table.setAccessibleName(self.tr("Downloads"))
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("File"),
                self.tr("Repository"),
                self.tr("Progress"),
                self.tr("Speed"),
                self.tr("Time left"),
                self.tr("Status"),
                "",
            ]
        )
        self.table.verticalHeader().hide()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(_COLUMNS, QHeaderView.ResizeMode.ResizeToContents)
        self.empty_label = QLabel(self.tr("No downloads. Choose a model under Discover."), self)
        self.clear_button = QPushButton(self.tr("Clear finished"), self)
        self.clear_button.clicked.connect(self.clear_finished)
        footer = QHBoxLayout()
        footer.addWidget(self.empty_label, 1)
        footer.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(footer)

        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        for snapshot in manager.snapshots():  # jobs restored from a previous run are not news
            self._reported[snapshot.id] = snapshot.state
        self.refresh()

    # ---- actions (GUI thread; the job threads see them between chunks) --------------

    def toggle(self, job_id: str) -> None:
        state = self.manager.job(job_id).snapshot().state
        if state in (JobState.RUNNING, JobState.QUEUED):
            self.manager.pause(job_id)
        else:
            self.manager.resume(job_id)
        self.refresh()

    def cancel(self, job_id: str) -> None:
        self.manager.cancel(job_id)
        self.refresh()

    def clear_finished(self) -> None:
        self.manager.remove_finished()
        self.table.setRowCount(0)
        self._rows.clear()
        self.refresh()

    # ---- refresh ------------------------------------------------------------------

    def refresh(self) -> None:
        snapshots = self.manager.snapshots()
        for snapshot in snapshots:
            row = self._rows.get(snapshot.id)
            if row is None:
                row = self._add_row(snapshot)
            self._update_row(row, snapshot)
            self._report(snapshot)
        self.empty_label.setVisible(not snapshots)
        self.clear_button.setEnabled(any(s.state.finished for s in snapshots))

    def _add_row(self, snapshot: JobSnapshot) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        for column, text in ((0, snapshot.filename.rsplit("/", 1)[-1]), (1, snapshot.repo_id)):
            self.table.setItem(row, column, read_only_item(text, text))
        for column in (3, 4, 5):
            self.table.setItem(row, column, read_only_item(""))
        bar = QProgressBar(self.table)
        bar.setRange(0, _BAR_STEPS)
        self.table.setCellWidget(row, 2, bar)
        self.table.setCellWidget(row, _COLUMNS, _JobButtons(self, snapshot.id))
        self._rows[snapshot.id] = row
        return row

    def _cell(self, row: int, column: int) -> QTableWidgetItem:
        """A text cell of a row that `_add_row` filled."""
        item = self.table.item(row, column)
        if item is None:
            raise LookupError(f"download row {row} has no cell {column}")
        return item

    def _update_row(self, row: int, snapshot: JobSnapshot) -> None:
        bar: QProgressBar = self.table.cellWidget(row, 2)  # type: ignore[assignment]
        fraction = snapshot.fraction
        bar.setValue(int((fraction or 0) * _BAR_STEPS))
        total = format_bytes(snapshot.total) if snapshot.total else "?"
        bar.setFormat(f"{(fraction or 0):.0%} · {format_bytes(snapshot.downloaded)} / {total}")
        running = snapshot.state is JobState.RUNNING
        self._cell(row, 3).setText(f"{format_bytes(snapshot.speed_bps)}/s" if running and snapshot.speed_bps else "")
        self._cell(row, 4).setText(format_eta(snapshot.eta_s) if running else "")
        status = self._cell(row, 5)
        status.setText(self._state_text(snapshot.state) + self._detail(snapshot))
        status.setToolTip(word(snapshot.message))
        buttons: _JobButtons = self.table.cellWidget(row, _COLUMNS)  # type: ignore[assignment]
        pausable = snapshot.state in (JobState.RUNNING, JobState.QUEUED)
        buttons.toggle.setText(
            self.tr("Pause")
            if pausable
            else (self.tr("Retry") if snapshot.state is JobState.FAILED else self.tr("Resume"))
        )
        buttons.toggle.setVisible(pausable or snapshot.can_resume or snapshot.state is JobState.FAILED)
        buttons.cancel.setVisible(not snapshot.state.finished)

    def _detail(self, snapshot: JobSnapshot) -> str:
        """The job's own words when they add something to the state (a failure, a retry, a check)."""
        plain = {JobState.RUNNING: "downloading", JobState.QUEUED: "waiting", JobState.VERIFYING: "checking SHA-256"}
        if not snapshot.message or plain.get(snapshot.state) == snapshot.message:
            return ""
        return ": " + word(snapshot.message)

    def _state_text(self, state: JobState) -> str:
        return {
            JobState.QUEUED: self.tr("Queued"),
            JobState.RUNNING: self.tr("Downloading"),
            JobState.PAUSED: self.tr("Paused"),
            JobState.VERIFYING: self.tr("Verifying"),
            JobState.DONE: self.tr("Installed"),
            JobState.FAILED: self.tr("Failed"),
            JobState.CANCELLED: self.tr("Cancelled"),
        }[state]

    def _report(self, snapshot: JobSnapshot) -> None:
        """Tell the rest of the app once per transition into installed or failed."""
        if self._reported.get(snapshot.id) is snapshot.state:
            return
        self._reported[snapshot.id] = snapshot.state
        if snapshot.state is JobState.DONE and snapshot.destination is not None:
            self.installed.emit(Path(snapshot.destination))
        elif snapshot.state is JobState.FAILED:
            self.failed.emit(snapshot.message)
            if snapshot.error_kind in _TOKEN_KIND_VALUES:
                self.needsToken.emit()

    def stop(self) -> None:
        self.timer.stop()
