"""The Logs panel (llama.cpp's and the app's lines, filtered and copyable) and "Copy diagnostics".

The panel reads the in-memory `LogBuffer` on a short timer while it is visible, taking only
what is new since its last look: logging happens on any thread, the panel only ever
reads on the GUI thread.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontDatabase, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.diagnostics.report import DiagnosticsInput, diagnostics_text
from app.core.memory.hardware import HardwareMonitor
from app.core.paths import app_paths
from app.core.support.log_buffer import DEFAULT_CAPACITY, LLAMA_LOGGER, LogBuffer, LogEntry
from app.ui.widgets.theme import colours

log = logging.getLogger(__name__)

POLL_MS = 250


def level_colour(level: int) -> str | None:
    """The theme's colour for a warning or error line; None for the others (they use the text colour)."""
    if level >= logging.ERROR:
        return colours().error_text
    return colours().warning_text if level >= logging.WARNING else None


class LogsPanel(QWidget):
    def __init__(self, buffer: LogBuffer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("LogsPanel")
        self.buffer = buffer
        self._seen = 0
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)

        row = QHBoxLayout()
        self.level = QComboBox(self)
        for name, level in (
            (self.tr("Debug and above"), logging.DEBUG),
            (self.tr("Info and above"), logging.INFO),
            (self.tr("Warnings and errors"), logging.WARNING),
            (self.tr("Errors only"), logging.ERROR),
        ):
            self.level.addItem(name, level)
        self.level.setCurrentIndex(1)
        self.source = QComboBox(self)
        self.source.addItem(self.tr("All sources"), "")
        self.source.addItem(self.tr("Glassbox"), "app")
        self.source.addItem(self.tr("llama.cpp"), LLAMA_LOGGER)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(self.tr("Filter…"))
        self.filter.setClearButtonEnabled(True)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setToolTip(self.tr("Copy the lines shown to the clipboard"))
        self.open_button = QPushButton(self.tr("Open log folder"), self)
        self.open_button.setToolTip(str(app_paths().logs))
        row.addWidget(self.level)
        row.addWidget(self.source)
        row.addWidget(self.filter, 1)
        row.addWidget(self.copy_button)
        row.addWidget(self.open_button)
        layout.addLayout(row)

        self.view = QPlainTextEdit(self)
        self.view.setReadOnly(True)
        self.view.setMaximumBlockCount(DEFAULT_CAPACITY)
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout.addWidget(self.view, 1)

        self.level.currentIndexChanged.connect(self.rebuild)
        self.source.currentIndexChanged.connect(self.rebuild)
        self.filter.textChanged.connect(self.rebuild)
        self.copy_button.clicked.connect(self.copy_shown)
        self.open_button.clicked.connect(self._open_folder)
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._timer.start()

    def accepts(self, entry: LogEntry) -> bool:
        if entry.level < self.level.currentData():
            return False
        source = self.source.currentData()
        if source and entry.source != source:
            return False
        needle = self.filter.text().strip().lower()
        return not needle or needle in entry.message.lower() or needle in entry.logger.lower()

    def poll(self) -> None:
        """Append what was logged since the last look (only while the panel is on screen)."""
        if not self.isVisible():
            return
        entries = self.buffer.entries_since(self._seen)
        if entries:
            self._seen = entries[-1].seq
            self._append([entry for entry in entries if self.accepts(entry)])

    def rebuild(self) -> None:
        self.view.clear()
        entries = self.buffer.entries()
        self._seen = entries[-1].seq if entries else self.buffer.last_seq
        self._append([entry for entry in entries if self.accepts(entry)])

    def shown_text(self) -> str:
        return self.view.toPlainText()

    def copy_shown(self) -> None:
        QGuiApplication.clipboard().setText(self.shown_text())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.rebuild()

    def _append(self, entries: list[LogEntry]) -> None:
        if not entries:
            return
        bar = self.view.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        for entry in entries:
            line = html.escape(entry.format()).replace("\n", "<br>")
            colour = level_colour(entry.level)
            self.view.appendHtml(f'<span style="color:{colour}">{line}</span>' if colour else line)
        if at_bottom:
            bar.setValue(bar.maximum())

    def _open_folder(self) -> None:
        folder = app_paths().logs
        folder.mkdir(parents=True, exist_ok=True)
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            log.warning("Could not open the log folder %s", folder)


class _DiagnosticsJob(QRunnable):
    """Measures the hardware and formats the diagnostics off the GUI thread (NVML and llama.cpp are asked)."""

    def __init__(self, given: DiagnosticsInput, done: DiagnosticsCopier) -> None:
        super().__init__()
        self._given = given
        self._done = done

    def run(self) -> None:
        try:
            if self._given.hardware is None:
                monitor = HardwareMonitor()
                try:
                    self._given.hardware = monitor.snapshot()
                finally:
                    monitor.close()
            text = diagnostics_text(self._given)
        except Exception as error:  # the report must never take the app down with it
            log.exception("Could not build the diagnostics")
            self._done.failed.emit(str(error))
            return
        self._done.ready.emit(text)


class DiagnosticsCopier(QObject):
    """`copy()` builds the diagnostics in the background, puts them on the clipboard and emits `copied`.

    `gather` runs on the GUI thread and returns what the window knows (model, settings,
    errors); the rest is measured in the background.
    """

    ready = Signal(str)
    failed = Signal(str)
    copied = Signal(str)

    def __init__(self, gather: Callable[[], DiagnosticsInput], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._gather = gather
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.ready.connect(self._copy)

    def copy(self) -> None:
        self.pool.start(_DiagnosticsJob(self._gather(), self))

    def wait(self, timeout_ms: int = 5000) -> bool:
        return self.pool.waitForDone(timeout_ms)

    def _copy(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
