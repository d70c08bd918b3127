"""Column widths of the Models window's tables: no header is ever cut off, long cells are.

Every column is as wide as its contents and never narrower than its header; a column with
a cap (a long name or path) stops there and elides its cells (their tooltips say it all).
The last column takes what room is left, and the table scrolls sideways when it has to.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTableWidget


def fit_columns(table: QTableWidget, caps: dict[int, int] | None = None) -> None:
    """Size every column to its contents and header; `caps` maps a column to its widest width in pixels."""
    header = table.horizontalHeader()
    header.setStretchLastSection(True)
    for column in range(table.columnCount()):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
    table.resizeColumnsToContents()
    for column, cap in (caps or {}).items():
        if header.sectionSize(column) > cap:
            header.resizeSection(column, max(cap, header.sectionSizeHint(column)))
