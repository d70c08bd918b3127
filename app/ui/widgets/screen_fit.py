"""Windows and dialogs sized to fit the screen they open on, never taller or wider than its free area."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

SCREEN_SHARE = 0.9  # a window opened at its wanted size takes at most this much of the available area


def resize_to_fit(widget: QWidget, wanted_width: int, wanted_height: int, centre: bool = False) -> None:
    """The size the widget wants, within SCREEN_SHARE of its screen's available area; `centre` on that
    area too (a dialog is left where Qt puts it: over its parent)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        widget.resize(wanted_width, wanted_height)
        return
    area = screen.availableGeometry()
    width = min(wanted_width, int(area.width() * SCREEN_SHARE))
    height = min(wanted_height, int(area.height() * SCREEN_SHARE))
    widget.resize(width, height)
    if centre:
        widget.move(area.x() + (area.width() - width) // 2, area.y() + (area.height() - height) // 2)
