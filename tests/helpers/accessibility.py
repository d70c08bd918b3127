"""What a screen reader meets: the interactive widgets of a window and the name each one is read out by."""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QComboBox,
    QAbstractSlider,
    QAbstractSpinBox,
    QAbstractItemView,
    QTabBar,
)


def accessible_name(widget: QWidget) -> str:
    """The name assistive technology reads for `widget` (its text, its label's, or its accessible name)."""
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name).strip() if interface is not None else ""


def _is_part_of_another(widget: QWidget) -> bool:
    """Inner pieces Qt builds into a composite (a spin box's line edit, a line edit's clear button, a combo's list)."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QAbstractSpinBox, QComboBox, QAbstractItemView, QLineEdit)):
            return True
        parent = parent.parentWidget()
    if isinstance(widget, QTabBar) and widget.count() == 0:  # one Qt keeps for docks that are not tabbed now
        return True
    return type(widget).__name__ in {"QScrollBar"} or widget.objectName().startswith("qt_")


def unnamed_widgets(root: QWidget) -> list[str]:
    """Every interactive widget under `root` (itself included) that takes focus or a click and has no name."""
    unnamed = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not isinstance(widget, INTERACTIVE) or _is_part_of_another(widget):
            continue
        if accessible_name(widget):
            continue
        where = widget.parentWidget()
        unnamed.append(f"{type(widget).__name__} {widget.objectName()!r} in {type(where).__name__ if where else None}")
    return unnamed
