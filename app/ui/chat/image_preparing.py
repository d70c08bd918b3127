"""Reading the images attached to a message off the GUI thread.

Checking an image means decoding it, and a big one (a 50 MB photo, a screenshot of 8000 × 8000
pixels, a pasted picture) takes seconds to decode, scale down and write as PNG: on the GUI thread the
window would freeze meanwhile. The tray hands each drop, paste or choice (a batch) to this worker,
which prepares it with app/core/chat/images.py in a thread of its own and answers with each image
prepared or the reason it was refused; batches are answered in the order they came.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, Signal, Slot
from PySide6.QtGui import QImage, QImageWriter

from app.core.chat.images import ImageRefused, PreparedImage, prepare_image, prepare_image_file
from app.core.support.formatting import fill

Prepared = PreparedImage | str  # an image prepared, or why it was refused (a core text, or one of this worker's)


@dataclass(frozen=True)
class ImageSource:
    """A picture to attach: a file, or one held in memory (pasted, or dropped from another program)."""

    name: str
    path: Path | None = None
    picture: QImage | None = None  # QImage (unlike QPixmap) may be read in any thread


class ImagePreparer(QObject):
    """Prepares batches of images in its thread; `closing` ends a batch between its images."""

    prepareRequested = Signal(object)  # list[ImageSource]: one batch
    prepared = Signal(object)  # list[Prepared]: the batch's answer, in its order

    def __init__(self) -> None:
        super().__init__()
        self.closing = threading.Event()
        self.prepareRequested.connect(self._prepare)

    @Slot(object)
    def _prepare(self, sources: list[ImageSource]) -> None:
        answers: list[Prepared] = []
        for source in sources:
            if self.closing.is_set():
                return
            try:
                answers.append(self._prepared(source))
            except ImageRefused as error:
                answers.append(str(error))
        self.prepared.emit(answers)

    def _prepared(self, source: ImageSource) -> PreparedImage:
        if source.path is not None:
            return prepare_image_file(source.path)
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        picture = source.picture
        if picture is None or picture.isNull() or not QImageWriter(buffer, QByteArray(b"PNG")).write(picture):
            raise ImageRefused(fill(self.tr("The pasted image {name} could not be read."), name=source.name))
        return prepare_image(bytes(buffer.data().data()), source.name)
