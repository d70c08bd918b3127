"""A timeline plot: a few lines over the session's seconds, with the replies shaded behind them.

Built on the shared LinePlot (frame, round y ticks, empty text). Every plot of the Monitor
panel shows the same time window, so a reply's span lines up across CPU, RAM and GPU;
hovering it shows the reply's numbers, hovering elsewhere the values at that moment. A
window holds at most about two points per pixel (the lowest and highest of each bucket), so
a three-hour session draws as fast as a minute and a spike is never thinned away.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QPainterPath, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from app.core.monitor.timeline import ReplySpan
from app.core.support.formatting import fill
from app.ui.widgets.plots import MARGIN_BOTTOM, MARGIN_TOP, LinePlot, format_number, nice_ceiling
from app.ui.widgets.theme import colours

SPAN_COLOUR = QColor(242, 142, 43, 48)  # the replies, behind the lines
SPAN_EDGE = QColor(242, 142, 43, 140)


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]  # (session seconds, value)


def ago_text(seconds: float, exact: bool = False) -> str:
    """How long before now a moment was: "now", "40 s ago", "10 min ago", "1 h 5 min ago" (with `exact`,
    the seconds too: "3 min 20 s ago"). The time axis ends now, so it reads back from there, not as a clock."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if whole == 0:
        return _tr("now")
    if whole < 60:
        return fill(_tr("{seconds} s ago"), seconds=secs)
    if hours:
        return fill(_tr("{hours} h {minutes} min ago"), hours=hours, minutes=minutes)
    if exact and secs:
        return fill(_tr("{minutes} min {seconds} s ago"), minutes=minutes, seconds=secs)
    return fill(_tr("{minutes} min ago"), minutes=minutes + (1 if secs >= 30 and not exact else 0))


def _tr(text: str) -> str:
    return QCoreApplication.translate("TimelinePlot", text)


def decimate(points: Sequence[tuple[float, float]], buckets: int) -> list[tuple[float, float]]:
    """At most two points per bucket (its lowest and highest, in time order); fewer points are kept as they are."""
    if buckets <= 0 or len(points) <= 2 * buckets:
        return list(points)
    size = len(points) / buckets
    kept: list[tuple[float, float]] = []
    for bucket in range(buckets):
        chunk = points[int(bucket * size) : int((bucket + 1) * size)]
        if not chunk:
            continue
        low = min(chunk, key=lambda p: p[1])
        high = max(chunk, key=lambda p: p[1])
        kept.extend(sorted({low, high}))
    return kept


class TimelinePlot(LinePlot):
    def __init__(
        self,
        title: str,
        unit: str,
        parent: QWidget | None = None,
        fixed_top: float | None = None,  # e.g. 100 for percentages: the axis does not jump with the data
    ) -> None:
        super().__init__(title, unit, "", parent)
        self.series: list[Series] = []
        self.spans: list[ReplySpan] = []
        self.time_window = (0.0, 60.0)
        self.fixed_top = fixed_top
        self.span_text: Callable[[ReplySpan], str] = lambda span: str(span.number)

    def set_data(self, series: Sequence[Series], spans: Sequence[ReplySpan], window: tuple[float, float]) -> None:
        buckets = max(1, int(self.plot_area().width()))
        self.series = [Series(s.label, decimate(s.points, buckets)) for s in series]
        self.points = [point for s in self.series for point in s.points]
        self.spans = list(spans)
        self.time_window = window
        self.update()

    # ---- geometry ------------------------------------------------------------------------

    def x_range(self) -> tuple[float, float]:
        low, high = self.time_window
        return low, high if high > low else low + 1.0

    def y_top(self) -> float:
        if self.fixed_top is not None:
            return max(self.fixed_top, nice_ceiling(max((y for _x, y in self.points), default=0.0)))
        return super().y_top()

    def span_rect(self, span: ReplySpan) -> QRectF:
        area = self.plot_area()
        low, high = self.x_range()
        end = span.end if span.end is not None else high
        left = area.left() + (max(span.start, low) - low) / (high - low) * area.width()
        right = area.left() + (min(end, high) - low) / (high - low) * area.width()
        return QRectF(left, area.top(), max(2.0, right - left), area.height())

    def span_at(self, x: float) -> ReplySpan | None:
        low, high = self.x_range()
        for span in reversed(self.spans):
            if (span.end is None or span.end >= low) and span.start <= high:
                rect = self.span_rect(span)
                if rect.left() <= x <= rect.right():
                    return span
        return None

    # ---- drawing -----------------------------------------------------------------------

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        area = self._draw_frame(painter, self.y_top())
        self._draw_legend(painter)
        low, high = self.x_range()
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        labels = QRectF(area.left(), area.bottom() + 2, area.width(), MARGIN_BOTTOM - 2)
        painter.drawText(labels, Qt.AlignmentFlag.AlignLeft, ago_text(high - low))  # the window ends now
        painter.drawText(labels, Qt.AlignmentFlag.AlignRight, ago_text(0))
        painter.save()
        painter.setClipRect(area)
        for span in self.spans:
            if (span.end is None or span.end >= low) and span.start <= high:
                rect = self.span_rect(span)
                painter.fillRect(rect, SPAN_COLOUR)
                painter.setPen(QPen(SPAN_EDGE, 1))
                painter.drawLine(rect.topLeft(), rect.bottomLeft())
        if not self.points:
            painter.restore()
            self._draw_empty(painter)
            return
        for index, series in enumerate(self.series):
            if not series.points:
                continue
            path = QPainterPath(self.to_screen(*series.points[0]))
            for x, y in series.points[1:]:
                path.lineTo(self.to_screen(x, y))
            painter.setPen(QPen(QColor(colours().series[index % len(colours().series)]), 1.6))
            painter.drawPath(path)
        painter.restore()

    def _draw_legend(self, painter: QPainter) -> None:
        if len(self.series) < 2:
            return
        metrics = painter.fontMetrics()
        x = float(self.width() - 6)
        for index in range(len(self.series) - 1, -1, -1):
            label = self.series[index].label
            width = metrics.horizontalAdvance(label)
            x -= width
            painter.setPen(QColor(colours().series[index % len(colours().series)]))
            painter.drawText(QRectF(x, 2, width + 2, MARGIN_TOP - 4), Qt.AlignmentFlag.AlignLeft, label)
            x -= 12

    # ---- hover ---------------------------------------------------------------------------

    def tooltip_at(self, pos: QPointF) -> str:
        """What hovering shows: the reply under the mouse, else each line's value at that moment."""
        if not self.plot_area().contains(pos):
            return ""
        span = self.span_at(pos.x())
        if span is not None:
            return self.span_text(span)
        lines = []
        moment: float | None = None
        for series in self.series:
            if not series.points:
                continue
            nearest = min(series.points, key=lambda p: abs(self.to_screen(*p).x() - pos.x()))
            moment = nearest[0] if moment is None else moment
            lines.append(f"{series.label}: {format_number(nearest[1])} {self.unit}")
        if moment is None:
            return ""
        return "\n".join([ago_text(self.x_range()[1] - moment, exact=True), *lines])

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(QPointF(event.pos()))
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
            return True
        return QWidget.event(self, event)
