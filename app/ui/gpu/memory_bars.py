"""A painted memory bar: segments (this app, other processes) over a total, with a caption inside."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.widgets.theme import colours


class MemoryBar(QWidget):
    """One horizontal bar of segments (bytes, colour) over a total, with a caption inside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(20)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.total = 0
        self.segments: list[tuple[int, QColor]] = []
        self.caption = ""

    def set_segments(self, total: int, segments: list[tuple[int, QColor]], caption: str, tooltip: str) -> None:
        self.total, self.segments, self.caption = total, segments, caption
        self.setToolTip(tooltip)
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        area = self.rect().adjusted(0, 0, -1, -1)
        c = colours()
        painter.fillRect(area, c.qcolor("memory_free"))
        x = area.left()
        for size, colour in self.segments:
            width = round(area.width() * size / self.total) if self.total else 0
            painter.fillRect(QRect(x, area.top(), width, area.height()), colour)
            x += width
        painter.setPen(QPen(c.qcolor("memory_outline")))
        painter.drawRect(area)
        painter.setPen(QPen(c.qcolor("window_text")))
        painter.drawText(
            area.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.caption
        )
        painter.end()
