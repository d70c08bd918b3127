"""The main window's status bar: a line of news, a load's progress, the speed of the reply."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QWidget


class StatusLine(QStatusBar):
    """Lays out the status bar's parts; the model loader and the reply write in them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status = QLabel(self)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(180)
        self.progress.hide()
        self.speed = QLabel(self)
        self.speed.setToolTip(self.tr("Generation speed of the current or last reply"))
        self.addWidget(self.status, 1)
        self.addPermanentWidget(self.progress)
        self.addPermanentWidget(self.speed)
