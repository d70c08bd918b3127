"""Line icons: drawn in the theme's text colour, and drawn again when the theme changes."""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QToolButton
from pytestqt.qtbot import QtBot

from app.core.settings import Theme
from app.ui.widgets.icons import STROKES, set_icon, themed_icon
from app.ui.widgets.theme import DARK, LIGHT, apply_theme


def stroke_lightness(button: QToolButton) -> int:
    """The median lightness of the icon's solid pixels (its strokes, without their soft edges)."""
    image = button.icon().pixmap(24, 24).toImage()
    pixels = (QColor.fromRgba(image.pixel(x, y)) for x in range(24) for y in range(24))
    lightness = sorted(colour.lightness() for colour in pixels if colour.alpha() == 255)
    assert lightness, "the icon draws something"
    return lightness[len(lightness) // 2]


def test_every_icon_renders_and_follows_the_theme(qtbot: QtBot) -> None:
    for name in STROKES:
        assert not themed_icon(name).isNull()
    button = QToolButton()
    qtbot.addWidget(button)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, Theme.LIGHT)
    set_icon(button, "copy")
    assert abs(stroke_lightness(button) - QColor(LIGHT.text).lightness()) <= 12  # dark strokes on a light theme
    apply_theme(app, Theme.DARK)
    assert abs(stroke_lightness(button) - QColor(DARK.text).lightness()) <= 12  # redrawn light on dark
    apply_theme(app, Theme.LIGHT)
