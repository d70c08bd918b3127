"""Read-only tables of the Models window: one look for every list of rows, items nobody edits."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QTableWidget, QTableWidgetItem


def read_only_item(text: str, tooltip: str = "", align_right: bool = False) -> QTableWidgetItem:
    """A cell that can be selected and copied but not edited (numbers right-aligned when asked)."""
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if tooltip:
        item.setToolTip(tooltip)
    if align_right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def style_row_table(table: QTableWidget) -> None:
    """One whole row is picked at a time; no row numbers; alternate rows shaded."""
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().hide()
    table.setAlternatingRowColors(True)
