"""Small plots drawn with QPainter: a line over time, bars per reply, and a load timeline.

QtCharts is not part of PySide6-Essentials, and these plots need little: an axis with a few
round ticks, the data, and a tooltip with the exact value under the mouse.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPainterPath, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.core.support.formatting import fill
from app.ui.widgets.theme import colours

MARGIN_LEFT = 44
MARGIN_RIGHT = 10
MARGIN_TOP = 22
MARGIN_BOTTOM = 22


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 x 10^k that is >= value (a round top for an axis)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value * (1 - 1e-9):
            return step * power
    return 10 * power


def format_number(value: float) -> str:
    if value >= 100 or value == int(value):
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


class _Plot(QWidget):
    """Frame, title, y axis with round ticks, and an empty-state message."""

    def __init__(self, title: str, unit: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.unit = unit
        self.empty_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)

    def sizeHint(self) -> QSize:
        return QSize(320, 150)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, 100)

    def plot_area(self) -> QRectF:
        return QRectF(
            MARGIN_LEFT,
            MARGIN_TOP,
            max(1, self.width() - MARGIN_LEFT - MARGIN_RIGHT),
            max(1, self.height() - MARGIN_TOP - MARGIN_BOTTOM),
        )

    def _draw_frame(self, painter: QPainter, top: float) -> QRectF:
        palette = self.palette()
        area = self.plot_area()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text = palette.color(QPalette.ColorRole.Text)
        muted = QColor(text)
        muted.setAlpha(60)
        painter.setPen(text)
        title = f"{self.title} ({self.unit})" if self.unit else self.title
        painter.drawText(QRectF(4, 2, self.width() - 8, MARGIN_TOP - 4), Qt.AlignmentFlag.AlignLeft, title)
        for fraction in (0.0, 0.5, 1.0):
            y = area.bottom() - fraction * area.height()
            painter.setPen(QPen(muted, 1, Qt.PenStyle.DotLine if fraction else Qt.PenStyle.SolidLine))
            painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
            painter.setPen(text)
            painter.drawText(
                QRectF(0, y - 8, MARGIN_LEFT - 4, 16),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                format_number(top * fraction),
            )
        return area

    def _draw_empty(self, painter: QPainter) -> None:
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        painter.drawText(self.plot_area(), Qt.AlignmentFlag.AlignCenter, self.empty_text)


class LinePlot(_Plot):
    """y over x (for example tokens/s over the seconds of a reply)."""

    def __init__(
        self, title: str, unit: str, x_unit: str, parent: QWidget | None = None, x_from_zero: bool = False
    ) -> None:
        super().__init__(title, unit, parent)
        self.x_unit = x_unit  # after the number on the axis and in tooltips, e.g. "s after sending"
        self.x_from_zero = x_from_zero  # the axis starts at 0 (a time axis measured from an event), not the first point
        self.points: list[tuple[float, float]] = []

    def set_points(self, points: Sequence[tuple[float, float]]) -> None:
        self.points = list(points)
        self.update()

    def y_top(self) -> float:
        return nice_ceiling(max((y for _x, y in self.points), default=0.0))

    def x_range(self) -> tuple[float, float]:
        if not self.points:
            return 0.0, 1.0
        first, last = self.points[0][0], self.points[-1][0]
        if self.x_from_zero:
            first = min(first, 0.0)
        return first, last if last > first else first + 1.0

    def to_screen(self, x: float, y: float) -> QPointF:
        area = self.plot_area()
        low, high = self.x_range()
        return QPointF(
            area.left() + (x - low) / (high - low) * area.width(), area.bottom() - y / self.y_top() * area.height()
        )

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        area = self._draw_frame(painter, self.y_top())
        if not self.points:
            self._draw_empty(painter)
            return
        low, high = self.x_range()
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        painter.drawText(
            QRectF(area.left(), area.bottom() + 2, area.width(), MARGIN_BOTTOM - 2),
            Qt.AlignmentFlag.AlignLeft,
            f"{format_number(low)} {self.x_unit}",
        )
        painter.drawText(
            QRectF(area.left(), area.bottom() + 2, area.width(), MARGIN_BOTTOM - 2),
            Qt.AlignmentFlag.AlignRight,
            f"{format_number(high)} {self.x_unit}",
        )
        path = QPainterPath(self.to_screen(*self.points[0]))
        for x, y in self.points[1:]:
            path.lineTo(self.to_screen(x, y))
        painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), 2))
        painter.drawPath(path)

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip and self.points:
            nearest = min(self.points, key=lambda p: abs(self.to_screen(*p).x() - event.pos().x()))
            QToolTip.showText(
                event.globalPos(),
                f"{format_number(nearest[0])} {self.x_unit}: {format_number(nearest[1])} {self.unit}",
                self,
            )
            return True
        return super().event(event)


class BarPlot(_Plot):
    """One bar per item (for example per reply), labelled below, the newest on the right."""

    def __init__(self, title: str, unit: str, parent: QWidget | None = None) -> None:
        super().__init__(title, unit, parent)
        self.values: list[float] = []
        self.labels: list[str] = []
        self.tips: list[str] = []

    def set_bars(self, values: Sequence[float], labels: Sequence[str] = (), tips: Sequence[str] = ()) -> None:
        """`labels` go under the bars (short); `tips` name each bar in its tooltip (the label when not given)."""
        self.values = list(values)
        self.labels = list(labels) or [str(i + 1) for i in range(len(self.values))]
        self.tips = list(tips) or self.labels
        self.update()

    def y_top(self) -> float:
        return nice_ceiling(max(self.values, default=0.0))

    def bar_rect(self, index: int) -> QRectF:
        area = self.plot_area()
        slot = area.width() / max(1, len(self.values))
        height = self.values[index] / self.y_top() * area.height()
        return QRectF(area.left() + index * slot + slot * 0.15, area.bottom() - height, slot * 0.7, height)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        area = self._draw_frame(painter, self.y_top())
        if not self.values:
            self._draw_empty(painter)
            return
        colour = self.palette().color(QPalette.ColorRole.Highlight)
        text = self.palette().color(QPalette.ColorRole.Text)
        metrics = QFontMetrics(self.font())
        for index, label in enumerate(self.labels):
            bar = self.bar_rect(index)
            painter.fillRect(bar, colour)
            if metrics.horizontalAdvance(label) <= bar.width() + 8:
                painter.setPen(text)
                painter.drawText(
                    QRectF(bar.left() - 4, area.bottom() + 2, bar.width() + 8, MARGIN_BOTTOM - 2),
                    Qt.AlignmentFlag.AlignHCenter,
                    label,
                )

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            for index, value in enumerate(self.values):
                bar = self.bar_rect(index)
                if bar.left() <= event.pos().x() <= bar.right():
                    tip = f"{self.tips[index]}: {format_number(value)} {self.unit}"
                    QToolTip.showText(event.globalPos(), tip, self)
                    return True
        return super().event(event)


@dataclass(frozen=True)
class Span:
    name: str
    start: float
    seconds: float
    detail: str = ""


class TimelineBar(QWidget):
    """Stages of a load as coloured segments along one time axis, each as wide as it took."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spans: list[Span] = []
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(28)

    def sizeHint(self) -> QSize:
        return QSize(320, 28)

    def set_spans(self, spans: Sequence[Span]) -> None:
        self.spans = list(spans)
        self.update()

    def total(self) -> float:
        return max((span.start + span.seconds for span in self.spans), default=0.0)

    def span_rect(self, index: int) -> QRectF:
        span = self.spans[index]
        scale = (self.width() - 2) / (self.total() or 1.0)
        return QRectF(1 + span.start * scale, 2, max(1.0, span.seconds * scale), self.height() - 4)

    def colour(self, index: int) -> QColor:
        series = colours().series
        return QColor(series[index % len(series)])

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Base))
        for index in range(len(self.spans)):
            painter.fillRect(self.span_rect(index), self.colour(index))

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            for index, span in enumerate(self.spans):
                if self.span_rect(index).contains(QPointF(event.pos())):
                    tip = f"{span.name}: {span.seconds * 1000:,.1f} ms" + (f"\n{span.detail}" if span.detail else "")
                    tip += "\n" + fill(
                        QCoreApplication.translate("TimelineBar", "from {start} s to {end} s after the load began"),
                        start=f"{span.start:.2f}",
                        end=f"{span.start + span.seconds:.2f}",
                    )
                    QToolTip.showText(event.globalPos(), tip, self)
                    return True
        return super().event(event)
