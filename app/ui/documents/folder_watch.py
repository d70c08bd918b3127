"""Watching the files and folders added to collections: a change on disk is reported once things are quiet.

QFileSystemWatcher sees a file added, removed or saved in a folder it watches (not in its
subfolders); the changes of a moment (a copy of many files) are reported together, once.
"""

from __future__ import annotations

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

WATCH_DELAY_MS = 1500  # a change on disk is reported after this quiet time


class FolderWatch(QObject):
    changed = Signal(object)  # set[str]: the watched paths that changed since the last report

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = QFileSystemWatcher(self)
        self._changed: set[str] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(WATCH_DELAY_MS)
        self.watcher.directoryChanged.connect(self._on_changed)
        self.watcher.fileChanged.connect(self._on_changed)
        self._timer.timeout.connect(self._report)

    def watch(self, wanted: set[str]) -> None:
        """Watch exactly these paths from now on."""
        watched = set(self.watcher.files()) | set(self.watcher.directories())
        if watched - wanted:
            self.watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self.watcher.addPaths(sorted(wanted - watched))

    def _on_changed(self, path: str) -> None:
        self._changed.add(path)
        self._timer.start()

    def _report(self) -> None:
        changed, self._changed = self._changed, set()
        self.changed.emit(changed)
