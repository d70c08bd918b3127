"""The theme's colours: readable in both themes (WCAG contrast, computed), and followed live by styled widgets."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from app.core.settings import Theme
from app.ui.widgets import theme
from app.ui.widgets.theme import DARK, LIGHT, SMALL_TEXT, Colours, Tone, colours_for, notifier, relative_font, set_tone


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of #rrggbb."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: str, b: str) -> float:
    lighter, darker = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_contrast_formula_matches_wcags_reference_values() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)


@pytest.mark.parametrize("colours", [LIGHT, DARK], ids=["light", "dark"])
def test_every_pair_the_theme_defines_is_readable(colours: Colours) -> None:
    pairs = colours.pairs()
    assert len(pairs) > 50
    too_faint = [
        f"{pair.name}: {pair.foreground} on {pair.background} is {contrast_ratio(pair.foreground, pair.background):.2f}"
        for pair in pairs
        if contrast_ratio(pair.foreground, pair.background) < pair.minimum
    ]
    assert too_faint == []
    assert {pair.minimum for pair in pairs} == {4.5, 3.0}  # text, and graphics


def test_the_dark_theme_is_dark_and_the_light_one_light() -> None:
    assert relative_luminance(DARK.window) < 0.05 < relative_luminance(DARK.text)
    assert relative_luminance(LIGHT.window) > 0.8 > relative_luminance(LIGHT.text)
    assert DARK.palette().color(QPalette.ColorRole.Base).name() == DARK.base
    assert LIGHT.palette().color(QPalette.ColorRole.Text).name() == LIGHT.text


def test_light_and_dark_are_chosen_as_asked() -> None:
    assert colours_for(Theme.DARK) is DARK
    assert colours_for(Theme.LIGHT) is LIGHT
    assert colours_for(Theme.SYSTEM) in (LIGHT, DARK)


def test_a_styled_label_follows_a_theme_change_and_its_size_follows_the_users_font(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    label = QLabel("note")
    qtbot.addWidget(label)
    monkeypatch.setattr(theme, "_active", LIGHT)
    set_tone(label, Tone.NOTE)
    assert LIGHT.muted in label.styleSheet()
    assert "px" not in label.styleSheet() and "font-size" not in label.styleSheet()
    base = label.font()
    assert base.pointSizeF() == pytest.approx(QApplication.font(label).pointSizeF() * SMALL_TEXT)
    set_tone(label, Tone.ERROR)  # restyling again does not shrink the text twice
    assert label.font().pointSizeF() == pytest.approx(base.pointSizeF())
    monkeypatch.setattr(theme, "_active", DARK)
    notifier().changed.emit()
    assert DARK.error_text in label.styleSheet()


def test_relative_sizes_scale_point_and_pixel_fonts() -> None:
    font = QLabel().font()
    font.setPointSizeF(10.0)
    assert relative_font(font, 0.9).pointSizeF() == pytest.approx(9.0)
    font.setPixelSize(20)
    assert relative_font(font, 0.9).pixelSize() == 18
