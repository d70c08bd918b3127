"""The tables of the Models window: rows picked whole, cells read but never edited."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QTableWidget
from pytestqt.qtbot import QtBot

from app.ui.widgets.tables import read_only_item, style_row_table


def test_a_read_only_cell_can_be_selected_but_not_edited_and_numbers_sit_right(qtbot: QtBot) -> None:
    cell = read_only_item("12,345", "downloads", align_right=True)
    assert not cell.flags() & Qt.ItemFlag.ItemIsEditable
    assert cell.flags() & Qt.ItemFlag.ItemIsSelectable
    assert cell.toolTip() == "downloads"
    assert cell.textAlignment() == int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def test_a_row_table_picks_one_whole_row_without_row_numbers(qtbot: QtBot) -> None:
    table = QTableWidget(2, 3)
    qtbot.addWidget(table)
    style_row_table(table)
    assert table.selectionBehavior() is QAbstractItemView.SelectionBehavior.SelectRows
    assert table.selectionMode() is QAbstractItemView.SelectionMode.SingleSelection
    assert table.verticalHeader().isHidden() and table.alternatingRowColors()
