"""Line icons drawn from SVG in the theme's text colour, redrawn when the theme changes.

Each icon is a few strokes on a 24-unit grid (drawn for Glassbox in the common outline
style of desktop apps), rendered by Qt's SVG module at the sizes a button asks for, so it is
sharp at any scale and readable on light and dark backgrounds alike.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QAbstractButton

from app.ui.widgets.theme import colours, notifier

STROKES: dict[str, str] = {
    "new-chat": '<path d="M4 5h11M4 10h7M4 15h5"/><path d="M17 13v8M13 17h8"/>',
    "models": '<path d="M12 3l8 4.5v9L12 21l-8-4.5v-9z"/><path d="M4 7.5l8 4.5 8-4.5M12 12v9"/>',
    "copy": '<rect x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V5a1 1 0 0 0-1-1H5a1 1 0 0 0-1 1v10'
    'a1 1 0 0 0 1 1h3"/>',
    "edit": '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13 7l4 4"/>',
    "regenerate": '<path d="M20 12a8 8 0 1 1-2.3-5.6"/><path d="M20 4v5h-5"/>',
    "delete": '<path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13"/><path d="M10 11v6M14 11v6"/>',
    "send": '<path d="M4 12l16-8-6 16-2-7z"/><path d="M12 13l8-9"/>',
    "stop": '<rect x="6" y="6" width="12" height="12" rx="2"/>',
    "eject": '<path d="M12 5l7 8H5z"/><path d="M5 18h14"/>',
    "attach": '<path d="M20 11.5l-8.2 8.2a5 5 0 0 1-7-7l8.7-8.7a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4'
    'l7.9-7.9"/>',
    "load-settings": '<path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12"/><circle cx="16" cy="6" r="2"/>'
    '<circle cx="10" cy="12" r="2"/><circle cx="18" cy="18" r="2"/>',
    "open": '<path d="M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z"/>',
}
SIZES = (16, 24, 32, 48)


def svg_text(name: str, colour: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" '
        f'stroke="{colour}" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">{STROKES[name]}</svg>'
    )


def themed_icon(name: str) -> QIcon:
    """The icon in the current theme's text colour (and its disabled colour for a disabled button)."""
    icon = QIcon()
    for mode, colour in ((QIcon.Mode.Normal, colours().text), (QIcon.Mode.Disabled, colours().disabled_text)):
        renderer = QSvgRenderer(QByteArray(svg_text(name, colour).encode("utf-8")))
        for size in SIZES:
            pixmap = QPixmap(QSize(size, size))
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            renderer.render(painter, QRectF(0, 0, size, size))
            painter.end()
            icon.addPixmap(pixmap, mode)
    return icon


class _IconKeeper(QObject):
    """A child of the button or action: it draws the icon again on each theme change and dies with it."""

    def __init__(self, owner: QAbstractButton | QAction, name: str) -> None:
        super().__init__(owner)
        self._owner = owner
        self._name = name
        notifier().changed.connect(self.redraw)
        self.redraw()

    def redraw(self) -> None:
        self._owner.setIcon(themed_icon(self._name))


def set_icon(owner: QAbstractButton | QAction, name: str) -> None:
    """Give a button or an action the named icon, following the theme from now on."""
    _IconKeeper(owner, name)
