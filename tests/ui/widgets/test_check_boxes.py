"""An unticked check box is plain to see in both themes: its box has an outline that stands out from the
background (WCAG's 3:1 for graphics), in a panel and in a list (the Documents panel's collections)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QListWidget, QListWidgetItem, QStyle, QStyleOptionButton
from pytestqt.qtbot import QtBot

from app.core.settings import Theme
from app.ui.widgets.theme import apply_theme, colours
from tests.ui.widgets.test_theme import contrast_ratio


@pytest.fixture(params=[Theme.LIGHT, Theme.DARK], ids=["light", "dark"])
def theme(request: pytest.FixtureRequest) -> Iterator[Theme]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, request.param)
    yield request.param
    apply_theme(app, Theme.LIGHT)


def strongest_contrast(image_rect: QRect, widget: QCheckBox | QListWidget, background: str) -> float:
    image = widget.grab().toImage()
    best = 1.0
    for x in range(image_rect.left(), image_rect.right() + 1):
        for y in range(image_rect.top(), image_rect.bottom() + 1):
            best = max(best, contrast_ratio(image.pixelColor(x, y).name(), background))
    return best


def test_an_unticked_check_box_shows_its_box(theme: Theme, qtbot: QtBot) -> None:
    box = QCheckBox("Use this collection")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    assert strongest_contrast(indicator, box, colours().window) >= 3.0


def test_an_unticked_box_in_a_list_shows_too(theme: Theme, qtbot: QtBot) -> None:
    listing = QListWidget()
    qtbot.addWidget(listing)
    item = QListWidgetItem("Papers", listing)
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
    item.setCheckState(Qt.CheckState.Unchecked)
    listing.show()
    qtbot.waitExposed(listing)
    row = listing.visualItemRect(item).translated(listing.viewport().pos())
    check = QRect(row.left(), row.top(), row.height(), row.height())  # the box comes first in the row
    assert strongest_contrast(check, listing, colours().base) >= 3.0
