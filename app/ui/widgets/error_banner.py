"""One place that both logs an error and shows it, without a modal dialog that blocks the chat."""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

log = logging.getLogger("app.errors")


class ErrorBanner(QFrame):
    """A dismissible strip at the top of the chat: what happened and what to do."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ErrorBanner")
        self.setStyleSheet(
            "#ErrorBanner { background: #fdecea; border: 1px solid #f5c2c0; border-radius: 6px; }"
            "#ErrorBanner QLabel { color: #8a1c14; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.hide)
        layout.addWidget(self.label, 1)
        layout.addWidget(close)
        self.hide()

    def show_error(self, message: str, level: int = logging.ERROR) -> None:
        log.log(level, "%s", message)
        self.label.setText(message)
        self.show()

    def message(self) -> str:
        return self.label.text() if self.isVisible() else ""
