"""The strip that says a model was not loaded again because its last load never finished, with Try again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from app.core.support.formatting import fill
from app.ui.widgets.theme import keep_styled


class UnfinishedLoadNotice(QFrame):
    """Shown at start when Glassbox closed (or crashed) during a load: load it again, or pick another model."""

    retryRequested = Signal(object)  # Path

    def __init__(self, model: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setObjectName("UnfinishedLoadNotice")
        keep_styled(
            self,
            lambda c: (
                f"#UnfinishedLoadNotice {{ background: {c.warning_notice.background}; "
                f"border: 1px solid {c.warning_notice.border}; border-radius: 6px; }}"
                f"#UnfinishedLoadNotice QLabel {{ color: {c.warning_notice.text}; }}"
            ),
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self.label = QLabel(
            fill(
                self.tr(
                    "Glassbox closed while loading {name} last time; it was not loaded again. "
                    "Try again, or choose another model in the picker."
                ),
                name=model.name,
            ),
            self,
        )
        self.label.setWordWrap(True)
        self.retry_button = QPushButton(self.tr("Try again"), self)
        self.retry_button.setToolTip(fill(self.tr("Load {name} again"), name=model.name))
        self.retry_button.clicked.connect(self._retry)
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.hide)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.retry_button)
        layout.addWidget(close)

    def _retry(self) -> None:
        self.hide()
        self.retryRequested.emit(self.model)
