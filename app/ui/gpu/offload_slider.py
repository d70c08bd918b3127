"""The GPU layers slider: 0 … all layers, its fit ranges painted under the groove, the recommended value marked."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QWidget

from app.core.memory.planner import Headroom
from app.ui.widgets.theme import colours

ZONE_COLOURS = {  # the theme's colour of each zone
    Headroom.FITS: "zone_fits",
    Headroom.TIGHT: "zone_tight",
    Headroom.WONT_FIT: "zone_wont_fit",
}


def zone_colour(fit: Headroom) -> QColor:
    return colours().qcolor(ZONE_COLOURS[fit])


class LayerSlider(QSlider):
    """A slider over 0 … all layers with its fit ranges painted under the groove and the
    recommended value marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setMinimumHeight(34)
        self.fits: list[Headroom] = []  # one per value 0 … maximum
        self.recommended: int | None = None

    def set_fits(self, fits: list[Headroom], recommended: int | None) -> None:
        if fits != self.fits or recommended != self.recommended:
            self.fits, self.recommended = fits, recommended
            self.update()

    def ranges(self) -> list[tuple[int, int, Headroom]]:
        """Runs of equal fit: (first value, last value, fit)."""
        runs: list[tuple[int, int, Headroom]] = []
        for value, fit in enumerate(self.fits):
            if runs and runs[-1][2] is fit:
                runs[-1] = (runs[-1][0], value, fit)
            else:
                runs.append((value, value, fit))
        return runs

    def _x_for(self, value: float, option: QStyleOptionSlider) -> int:
        groove = self.style().subControlRect(
            QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self
        )
        handle = self.style().subControlRect(
            QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self
        )
        span = groove.width() - handle.width()
        if self.maximum() == self.minimum():
            return groove.left() + handle.width() // 2
        fraction = (value - self.minimum()) / (self.maximum() - self.minimum())
        return groove.left() + handle.width() // 2 + round(fraction * span)

    def paintEvent(self, event: QPaintEvent) -> None:
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        painter = QPainter(self)
        band_top = self.height() - 7
        for first, last, fit in self.ranges():
            left = self._x_for(first - 0.5 if first > 0 else first, option)
            right = self._x_for(last + 0.5 if last < self.maximum() else last, option)
            painter.fillRect(QRect(left, band_top, max(1, right - left), 5), zone_colour(fit))
        if self.recommended is not None:
            x = self._x_for(self.recommended, option)
            painter.setPen(QPen(colours().qcolor("window_text"), 2))
            painter.drawLine(x, band_top - 4, x, self.height() - 1)
        painter.end()
        super().paintEvent(event)
