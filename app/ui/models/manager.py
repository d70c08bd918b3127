"""The Models window: Discover (search, variants with fit hints), Downloads (the queue), Library.

A non-modal dialog the main window keeps for the whole session, so downloads go on when it
is closed. Partial downloads left by an earlier run come back paused. `request_stop()` pauses
the downloads (their bytes stay for next time) and stops the workers without waiting;
`shutdown()` then waits for them.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.hub.client import hub_endpoint
from app.core.hub.downloads.job import DownloadRequest
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.token_store import TokenStore
from app.core.models.library import split_shards
from app.core.paths import AppPaths, app_paths
from app.core.support.formatting import fill
from app.ui.models.discover import DiscoverPage
from app.ui.models.downloads_view import DownloadsPage
from app.ui.models.library_view import LibraryPage
from app.ui.models.workers import ModelWorkers
from app.ui.widgets.error_banner import ErrorBanner

log = logging.getLogger(__name__)


class TokenBar(QWidget):
    """Hugging Face token entry: saved only in the system keyring, never shown again."""

    statusShown = Signal(str)

    def __init__(self, workers: ModelWorkers, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hub = workers.hub
        self.status = QLabel(self.tr("Checking the keyring…"), self)
        self.status.setWordWrap(True)
        self.edit = QLineEdit(self)
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setAccessibleName(self.tr("Hugging Face token"))
        self.edit.setPlaceholderText(self.tr("Hugging Face token (hf_…)"))
        self.edit.setMinimumWidth(240)
        self.edit.setToolTip(fill(self.tr("A read token from {url}/settings/tokens"), url=hub_endpoint()))
        self.edit.returnPressed.connect(self.save)
        self.save_button = QPushButton(self.tr("Save token"), self)
        self.save_button.clicked.connect(self.save)
        self.clear_button = QPushButton(self.tr("Remove token"), self)
        self.clear_button.clicked.connect(self.hub.tokenClearRequested.emit)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status, 1)
        layout.addWidget(self.edit)
        layout.addWidget(self.save_button)
        layout.addWidget(self.clear_button)
        self.hub.tokenStatus.connect(self.show_status)
        self.hub.tokenStatusRequested.emit()

    def save(self) -> None:
        token = self.edit.text()
        if not token.strip():
            return
        self.edit.clear()  # the token leaves the widget at once
        self.hub.tokenSaveRequested.emit(token)

    def show_status(self, saved: bool, text: str) -> None:
        self.status.setText(text)
        self.clear_button.setEnabled(saved)
        self.statusShown.emit(text)


class ModelManagerDialog(QDialog):
    modelInstalled = Signal(object)  # Path of a model that is now in the library (download or import)
    modelRemoved = Signal(object)  # Path of a model that was deleted

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        paths: AppPaths | None = None,
        token_store: TokenStore | None = None,
        manager: DownloadManager | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Models"))
        self.setAcceptDrops(True)
        self.resize(980, 680)
        self.paths = paths or app_paths()
        token_store = token_store or TokenStore()
        self.workers = ModelWorkers(token_store)
        self.manager = manager or DownloadManager(self.paths, token_provider=token_store.get)
        restored = self.manager.restore()
        if restored:
            log.info("%d unfinished download(s) from an earlier run are paused", len(restored))

        self.banner = ErrorBanner(self)
        self.token_bar = TokenBar(self.workers, self)
        self.discover = DiscoverPage(self.workers.hub, self)
        self.downloads = DownloadsPage(self.manager, self)
        self.library = LibraryPage(self.workers.library, self.paths.models, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.discover, self.tr("Discover"))
        self.tabs.addTab(self.downloads, self.tr("Downloads"))
        self.tabs.addTab(self.library, self.tr("Library"))
        if restored:
            self.tabs.setCurrentWidget(self.downloads)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.token_bar)
        layout.addWidget(self.tabs, 1)

        self.workers.hub.failed.connect(self._on_hub_failed)
        self.discover.downloadRequested.connect(self.start_downloads)
        self.downloads.installed.connect(self._on_installed)
        self.downloads.failed.connect(self.banner.show_error)
        self.library.problem.connect(self.banner.show_error)
        self.library.modelAdded.connect(self.modelInstalled.emit)
        self.library.modelRemoved.connect(self.modelRemoved.emit)
        self.library.refresh()
        # Enter belongs to the focused field (search, token), never to a "default" button.
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """.gguf files dropped anywhere on the window are imported into the library."""
        self.library.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.tabs.setCurrentWidget(self.library)
        self.library.dropEvent(event)

    def _on_hub_failed(self, _what: str, message: str) -> None:
        self.banner.show_error(message)

    def start_downloads(self, requests: list[DownloadRequest]) -> None:
        for request in requests:
            self.manager.enqueue(request)
        self.downloads.refresh()
        self.tabs.setCurrentWidget(self.downloads)

    def _on_installed(self, path: Path) -> None:
        """A file arrived; announce the model once all its parts are here (first shard first)."""
        self.library.refresh()
        shards = split_shards(path)
        if all(shard.is_file() for shard in shards):
            self.modelInstalled.emit(shards[0])

    def request_stop(self) -> None:
        """Pause the downloads and stop the workers without waiting (the first step of the app's exit)."""
        self.downloads.stop()
        self.manager.shutdown(timeout=0)  # pauses every download; its threads are waited for in shutdown()
        self.workers.request_stop()

    def shutdown(self) -> bool:
        """Pause downloads (bytes kept for the next run) and stop the worker threads; True once all have ended."""
        self.request_stop()
        paused = self.manager.shutdown()
        stopped = self.workers.shutdown()
        return paused and stopped
