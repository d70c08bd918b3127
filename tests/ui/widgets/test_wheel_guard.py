"""Scrolling a panel with the wheel never changes a setting; a field changes with the wheel once it has the focus."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QSpinBox, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.ui.chat.settings_panel import SettingsPanel
from app.ui.settings.store import SettingsStore
from app.ui.widgets.panel_scroller import PanelScroller
from tests.helpers.wheel import turn_wheel_down


def tall_panel(qtbot: QtBot) -> tuple[PanelScroller, QComboBox, QSpinBox]:
    panel = QWidget()
    layout = QVBoxLayout(panel)
    combo = QComboBox(panel)
    combo.addItems(["Auto", "On", "Off"])
    spin = QSpinBox(panel)
    layout.addWidget(combo)
    layout.addWidget(spin)
    layout.addSpacing(2000)  # taller than its dock: the panel scrolls
    scroller = PanelScroller(panel)
    scroller.resize(300, 200)
    qtbot.addWidget(scroller)
    scroller.show()
    qtbot.waitExposed(scroller)
    return scroller, combo, spin


def test_the_wheel_over_an_unfocused_combo_box_scrolls_the_panel_and_leaves_the_choice(qtbot: QtBot) -> None:
    scroller, combo, _spin = tall_panel(qtbot)
    turn_wheel_down(combo)
    assert combo.currentText() == "Auto"
    assert scroller.verticalScrollBar().value() > 0


def test_the_wheel_over_an_unfocused_spin_box_leaves_its_value(qtbot: QtBot) -> None:
    _scroller, _combo, spin = tall_panel(qtbot)
    spin.setValue(5)
    turn_wheel_down(spin)
    assert spin.value() == 5


def test_a_focused_field_takes_the_wheel(qtbot: QtBot) -> None:
    scroller, combo, _spin = tall_panel(qtbot)
    scroller.activateWindow()
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    turn_wheel_down(combo)
    assert combo.currentText() == "On"


def test_the_wheel_does_not_give_a_field_the_focus(qtbot: QtBot) -> None:
    _scroller, combo, spin = tall_panel(qtbot)
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
    assert spin.focusPolicy() == Qt.FocusPolicy.StrongFocus


def test_fields_added_to_a_panel_after_it_is_built_are_guarded_too(qtbot: QtBot) -> None:
    _scroller, combo, _spin = tall_panel(qtbot)
    late = QComboBox(combo.parentWidget())
    late.addItems(["Balanced", "Creative"])
    combo.parentWidget().layout().insertWidget(0, late)
    late.show()
    turn_wheel_down(late)
    assert late.currentText() == "Balanced"


def test_the_chat_settings_panel_in_its_dock_keeps_its_choices_under_the_wheel(qtbot: QtBot) -> None:
    settings = SettingsPanel(SettingsStore())
    scroller = PanelScroller(settings)
    qtbot.addWidget(scroller)
    scroller.show()
    combos = settings.findChildren(QComboBox)
    assert combos
    before = [box.currentIndex() for box in combos]
    for box in combos:
        turn_wheel_down(box)
    assert [box.currentIndex() for box in combos] == before
