"""The Documents panel's list of files: each file's indexing status, its chunks, and why it was skipped or failed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from app.core.documents.indexer import FileStatus
from app.ui.widgets.theme import colours


class FileStatusList(QTreeWidget):
    """One row per file (its path), updated in place as the indexing reports it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(self.tr("Files and their indexing status"))
        self.setRootIsDecorated(False)
        self.setHeaderLabels([self.tr("File"), self.tr("Status"), self.tr("Chunks"), self.tr("Why")])
        header = self.header()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)

    def set_row(self, path: Path, status: FileStatus, chunks: int, reason: str) -> None:
        found = self.findItems(str(path), Qt.MatchFlag.MatchExactly, 0)
        item = found[0] if found else QTreeWidgetItem(self, [str(path)])
        item.setText(1, self._status_text(status))
        item.setText(2, str(chunks) if chunks else "")
        item.setText(3, reason)
        item.setToolTip(3, reason)
        item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if status is FileStatus.FAILED:
            item.setForeground(1, colours().qcolor("error_text"))
        elif status in (FileStatus.SKIPPED, FileStatus.REMOVED):
            item.setForeground(1, colours().qcolor("muted"))

    def statuses(self) -> dict[str, tuple[str, str]]:
        """File → (status, why) as the list shows them."""
        rows = (self.topLevelItem(i) for i in range(self.topLevelItemCount()))
        return {item.text(0): (item.text(1), item.text(3)) for item in rows if item is not None}

    def _status_text(self, status: FileStatus) -> str:
        return {
            FileStatus.INDEXED: self.tr("indexed"),
            FileStatus.UNCHANGED: self.tr("indexed"),
            FileStatus.SKIPPED: self.tr("skipped"),
            FileStatus.FAILED: self.tr("failed"),
            FileStatus.REMOVED: self.tr("removed"),
        }[status]
