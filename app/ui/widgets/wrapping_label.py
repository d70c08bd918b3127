"""A word-wrapped label that is always as tall as its text at its width.

Qt's layouts ask a wrapped label's height for one width and may give it another (a form inside a
scroll area inside a dock does): the label then kept the height of a wider line and its last lines
were cut, until something laid the panel out again (a reload). This label asks for the height its
text takes at the width it was given, each time that width changes.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class WrappingLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        needed = self.heightForWidth(self.width()) if self.width() > 0 else -1
        if needed > 0 and needed != self.minimumHeight():
            self.setMinimumHeight(needed)
