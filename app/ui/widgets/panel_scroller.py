"""A dock's panel that scrolls up and down, never sideways.

Inside a dock the panel may be taller than the screen (settings, the stats plots): it then
scrolls. It is never cut off at the side: the dock is at least as wide as the panel needs,
with room for the scroll bar, while its height can shrink to a few lines. The wheel scrolls
it, and changes a combo box or spin box only when that field has the focus (wheel_guard.py).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from app.ui.widgets.wheel_guard import guard_wheel

MIN_HEIGHT = 120  # a dock can shrink to this; the panel scrolls inside


class PanelScroller(QScrollArea):
    def __init__(self, panel: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the panel's own fields take the focus
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(panel)
        guard_wheel(panel)

    def minimumSizeHint(self) -> QSize:
        panel = self.widget()
        inner = panel.minimumSizeHint() if panel is not None else QSize(0, 0)
        width = inner.width() + self.verticalScrollBar().sizeHint().width()
        return QSize(width, min(inner.height(), MIN_HEIGHT))

    def sizeHint(self) -> QSize:
        panel = self.widget()
        inner = panel.sizeHint() if panel is not None else QSize(0, 0)
        return QSize(inner.width() + self.verticalScrollBar().sizeHint().width(), inner.height())
