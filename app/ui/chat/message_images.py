"""A message's images in the chat: a row of thumbnails above its text; a click opens the image.

The image opens in the program the system shows pictures with (the prepared PNG in the data
folder). An image whose file is gone (deleted outside Glassbox) keeps its place, greyed, and says so.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, QUrl
from PySide6.QtGui import QDesktopServices, QIcon
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from app.core.support.formatting import fill
from app.ui.chat.attachments import thumbnail

THUMBNAIL_SIDE = 96  # pixels of an image's thumbnail in a message


class MessageImages(QWidget):
    """The thumbnails of a message's images, in the order they were attached."""

    def __init__(self, images: tuple[Path, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        self.buttons: list[QToolButton] = []
        for index, path in enumerate(images, start=1):
            button = QToolButton(self)
            button.setAutoRaise(True)
            button.setIconSize(QSize(THUMBNAIL_SIDE, THUMBNAIL_SIDE))
            picture = thumbnail(path, THUMBNAIL_SIDE) if path.exists() else None
            if picture is not None and not picture.isNull():
                button.setIcon(QIcon(picture))
                button.setToolTip(self.tr("Open the image"))
                button.clicked.connect(lambda _checked=False, shown=path: open_image(shown))
            else:
                button.setText(self.tr("Image missing"))
                button.setToolTip(fill(self.tr("The image {name} is no longer in the data folder."), name=path.name))
                button.setEnabled(False)
            button.setAccessibleName(fill(self.tr("Image {n}"), n=index))
            layout.addWidget(button)
            self.buttons.append(button)
        layout.addStretch(1)


def open_image(path: Path) -> None:
    """Show the image in the system's picture viewer."""
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
