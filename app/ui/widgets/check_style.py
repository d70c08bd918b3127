"""Check boxes whose box shows on any background: Fusion with an outline drawn in the theme's colour.

Fusion outlines a check box in its window colour, darkened: on the dark theme an unticked box
(the Documents panel's collections, the settings) was invisible or faint. This style draws
Fusion's box, then an outline in a colour the theme chooses to contrast with its backgrounds.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleFactory, QStyleOption, QWidget

CHECK_INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck)


class OutlinedChecks(QProxyStyle):
    def __init__(self, outline: Callable[[], QColor]) -> None:
        super().__init__(QStyleFactory.create("Fusion"))
        self._outline = outline

    def drawPrimitive(
        self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element in CHECK_INDICATORS:
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(self._outline(), 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5), 2, 2)
            painter.restore()
