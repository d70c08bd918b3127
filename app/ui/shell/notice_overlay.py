"""Notices float over the top of the chat: one that appears covers the chat's first lines and moves nothing.

A banner laid out above the chat (a load error, Replay's result, a Monitor alert) pushed the
whole conversation down when it appeared, so the button under the pointer changed under a
click. The overlay holds the notices in a column placed over the top of its anchor (the
chat), as wide as it and as tall as the notices shown; with none shown it is zero lines tall
and takes no click.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QVBoxLayout, QWidget


class NoticeOverlay(QWidget):
    def __init__(self, anchor: QWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self._anchor = anchor
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.setSpacing(4)
        anchor.installEventFilter(self)
        self.place()

    def add(self, notice: QWidget, first: bool = False) -> None:
        """Put a notice in the column (at its top when `first`)."""
        notice.setParent(self)
        self._column.insertWidget(0 if first else self._column.count(), notice)
        self.place()

    def place(self) -> None:
        """Over the anchor's top, as tall as the notices shown (never taller than the anchor)."""
        shown = any(w.isVisibleTo(self) for w in self.findChildren(QWidget) if w.parentWidget() is self)
        area = self._anchor.geometry()
        height = min(self._column.totalHeightForWidth(area.width()), area.height()) if shown else 0
        if height < 0:  # no height-for-width in the column
            height = min(self._column.totalSizeHint().height(), area.height())
        self.setGeometry(area.x(), area.y(), area.width(), height)
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._anchor and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.place()
        return False

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.ChildRemoved):  # a notice shown, hidden or gone
            self.place()
        return handled
