"""Where the user types: Enter sends, Shift+Enter starts a new line; images dropped or pasted are attached."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QImage, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from app.ui.chat.attachments import AttachmentTray, is_image_name


class Composer(QPlainTextEdit):
    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None, attachments: AttachmentTray | None = None) -> None:
        super().__init__(parent)
        self.attachments = attachments  # where dropped and pasted images go; None: the box takes text only
        self.setPlaceholderText(self.tr("Message the model — Enter to send, Shift+Enter for a new line"))
        self.setAccessibleName(self.tr("Message"))
        self.setTabChangesFocus(True)
        self.setMaximumHeight(120)
        self._can_send = True

    def set_can_send(self, can_send: bool) -> None:
        """While a reply streams the user may keep typing, but Enter does not send."""
        self._can_send = can_send

    def keyPressEvent(self, event: QKeyEvent) -> None:
        is_enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if is_enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submit()
            return
        super().keyPressEvent(event)

    def submit(self) -> None:
        """Offer the text (it may be empty when images are attached); the window clears the composer and
        the attachments once it has taken the message."""
        text = self.toPlainText().strip()
        images = self.attachments.images if self.attachments is not None else ()
        if not (text or images) or not self._can_send:
            return
        self.submitted.emit(text)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        if self.attachments is not None and (_image_files(source) or source.hasImage()):
            return True
        return super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """A drop or a paste: image files and pictures are attached, anything else is typed in."""
        if self.attachments is None:
            super().insertFromMimeData(source)
        elif files := _image_files(source):
            self.attachments.add_files(files)
        elif source.hasImage():
            self.attachments.add_picture(QImage(source.imageData()), self.tr("pasted image"))
        else:
            super().insertFromMimeData(source)


def _image_files(source: QMimeData) -> list[Path]:
    """The local image files among what is dropped or pasted."""
    paths = [Path(url.toLocalFile()) for url in source.urls() if url.isLocalFile()] if source.hasUrls() else []
    return [path for path in paths if is_image_name(path)]
