"""A wrapped label is never given less height than its text takes at its width, whatever the layout asked
it first (the settings panel's explanations were cut in a dock until a reload)."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.ui.widgets.wrapping_label import WrappingLabel

TEXT = "超出训练长度的位置如何按上面的缩放比例拉伸：模型自带的方式、不缩放、线性（普通位置插值），或 YaRN。" * 3


def test_its_least_height_is_its_texts_height_at_the_width_it_is_given(qtbot: QtBot) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    label = WrappingLabel(TEXT, holder)
    QVBoxLayout(holder).addWidget(label)
    holder.resize(600, 400)
    holder.show()
    qtbot.waitExposed(holder)
    wide = label.minimumHeight()
    assert wide == label.heightForWidth(label.width()) > 0
    holder.resize(220, 400)  # a narrower dock: more lines
    qtbot.waitUntil(lambda: label.width() < 220)
    assert label.minimumHeight() == label.heightForWidth(label.width()) > wide
    assert label.height() >= label.minimumHeight()


def test_new_text_asks_for_its_own_height(qtbot: QtBot) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    label = WrappingLabel("One line.", holder)
    QVBoxLayout(holder).addWidget(label)
    holder.resize(240, 400)
    holder.show()
    qtbot.waitExposed(holder)
    one_line = label.minimumHeight()
    label.setText(TEXT)
    assert label.minimumHeight() == label.heightForWidth(label.width()) > one_line
