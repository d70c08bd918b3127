"""The mouse wheel scrolls a panel; it changes a setting only in the field that has the keyboard focus.

Scrolling a settings panel with the wheel used to change whichever combo box or spin box
passed under the pointer (Speculative decoding Auto → On, the preset Balanced → Creative).
The guard watches a panel and every widget added to it later: a wheel turned over such a
field without the focus is handed on to the field's parents, as Qt hands on a wheel a widget
ignores, until one takes it: the panel, which scrolls.
The fields take the focus from a click or Tab only, never from the wheel.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QChildEvent, QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QScrollBar, QWidget

WHEEL_FIELDS = (QComboBox, QAbstractSpinBox, QAbstractSlider)


def takes_wheel_only_when_focused(widget: QWidget) -> bool:
    return isinstance(widget, WHEEL_FIELDS) and not isinstance(widget, QScrollBar)


class WheelGuard(QObject):
    """Watches a panel's widgets, and those added later (their parent hears that they are polished)."""

    def watch(self, root: QWidget) -> None:
        for widget in (root, *root.findChildren(QWidget)):
            widget.installEventFilter(self)  # installed once: Qt moves a repeated filter to the front
            if takes_wheel_only_when_focused(widget) and widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Wheel:
            if isinstance(watched, QWidget) and takes_wheel_only_when_focused(watched) and not watched.hasFocus():
                hand_on_to_parents(watched, cast(QWheelEvent, event))
                return True
        elif kind == QEvent.Type.ChildPolished and isinstance(event, QChildEvent):
            child = event.child()
            if isinstance(child, QWidget):
                self.watch(child)
        return False


def hand_on_to_parents(field: QWidget, event: QWheelEvent) -> None:
    """Offer the wheel to `field`'s parents in turn, nearest first, until one takes it (Qt does so only
    for the events the window system sends, so a wheel sent by the program would otherwise stop here)."""
    parent = field.parentWidget()
    while parent is not None:
        local = QPointF(parent.mapFromGlobal(event.globalPosition().toPoint()))
        offered = QWheelEvent(
            local, event.globalPosition(), event.pixelDelta(), event.angleDelta(), event.buttons(),
            event.modifiers(), event.phase(), event.inverted(), event.source(),
        )  # fmt: skip
        QApplication.sendEvent(parent, offered)
        if offered.isAccepted() or parent.isWindow():
            return
        parent = parent.parentWidget()


def guard_wheel(panel: QWidget) -> WheelGuard:
    """Guard `panel` (and what is added to it later); the guard lives as long as the panel."""
    guard = WheelGuard(panel)
    guard.watch(panel)
    return guard
