"""Images in a tool's result, shown as thumbnails under its call.

A result's image is bytes a server sent, kept within the result's cap (app/core/tools/results.py). Here it
is decoded by Qt's image reader as one of a few plain raster formats and nothing else: no file is written,
no viewer or program is started, nothing in it is followed. An image whose header says it has more than
MAX_PIXELS is not decoded at all; one Qt cannot read (or of another format) is left out, the result's text
still names it. A thumbnail is at most THUMBNAIL_PX on its longer side, and a call keeps at most MAX_IMAGES
of them, as PNG, with its reply.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QImage, QImageReader, QImageWriter, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from app.core.support.formatting import fill

THUMBNAIL_PX = 160
MAX_IMAGES = 4
MAX_PIXELS = 40_000_000  # a header claiming more is not decoded (a small file can unpack to gigabytes)
FORMATS = frozenset({b"png", b"jpeg", b"jpg", b"gif", b"webp", b"bmp"})  # raster formats only: nothing to run


def thumbnail(data: bytes) -> QImage | None:
    """`data` decoded as a raster image and scaled to a thumbnail; None when it is not one Glassbox shows."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    if not buffer.open(QIODevice.OpenModeFlag.ReadOnly):
        return None
    reader = QImageReader(buffer)
    if bytes(reader.format().data()).lower() not in FORMATS:  # from the first bytes: nothing else is parsed
        return None
    size = reader.size()  # from the header
    if not size.isValid() or size.width() * size.height() > MAX_PIXELS:
        return None
    image = reader.read()
    if image.isNull():
        return None
    if max(image.width(), image.height()) <= THUMBNAIL_PX:
        return image
    return image.scaled(
        THUMBNAIL_PX, THUMBNAIL_PX, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
    )


def png_thumbnails(images: Iterable[bytes]) -> tuple[str, ...]:
    """The thumbnails of the images Glassbox shows, each PNG in base64 (what a saved call keeps), at most MAX_IMAGES."""
    kept: list[str] = []
    for data in images:
        if len(kept) == MAX_IMAGES:
            break
        image = thumbnail(data)
        if image is None:
            continue
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        QImageWriter(buffer, QByteArray(b"png")).write(image)
        kept.append(base64.b64encode(bytes(buffer.data().data())).decode("ascii"))
    return tuple(kept)


class ImageStrip(QWidget):
    """The thumbnails of a result's images, in a row; each a picture with a name for screen readers."""

    def __init__(self, thumbnails: Iterable[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.labels: list[QLabel] = []
        for encoded in thumbnails:
            pixmap = _pixmap(encoded)
            if pixmap is None:
                continue
            label = QLabel(self)
            label.setPixmap(pixmap)
            label.setAccessibleName(
                fill(
                    self.tr("Image in the tool's result, {width} × {height} pixels shown"),
                    width=pixmap.width(),
                    height=pixmap.height(),
                )
            )
            row.addWidget(label)
            self.labels.append(label)
        row.addStretch(1)


def _pixmap(encoded: str) -> QPixmap | None:
    """A saved thumbnail as a picture (None for what is not one: a saved chat may come from elsewhere)."""
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        return None
    image = thumbnail(data)
    return None if image is None else QPixmap.fromImage(image)
