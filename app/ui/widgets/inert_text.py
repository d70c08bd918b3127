"""Text that came from outside (a model's reply, a pasted message) shown without loading anything.

Qt's text document reads what its text refers to, synchronously, on the GUI thread: an
image's file (`/dev/zero` ends the process, a named pipe blocks it forever), a style sheet,
a background image. The renderer never puts such references into a document (see
`markdown.py`); these classes are the second line: a document that answers every resource
request itself, and a read-only view on it that opens nothing by itself.

Both answer an image request with a one-pixel transparent image, not with nothing: when a
document's answer is empty, Qt's image handler loads the file by its name on its own.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, QUrl
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPalette, QTextDocument, QTextOption, QWheelEvent
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget


def blank_resource(kind: int) -> Any:
    """What an inert document answers for any resource: a blank pixel for an image, empty text otherwise.

    Either is a valid answer, so Qt asks no one else (an empty answer would make it read the file itself).
    """
    if kind == QTextDocument.ResourceType.ImageResource:
        return _BLANK_PIXEL
    return ""


def _blank_pixel() -> QImage:
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    return image


_BLANK_PIXEL = _blank_pixel()


class InertDocument(QTextDocument):
    """A text document that never reads a file or the network for what its text refers to."""

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        return blank_resource(kind)


class InertTextView(QTextBrowser):
    """A read-only view that is as tall as its text, never scrolls itself and opens no link.

    Clicking a link emits `anchorClicked`; whoever shows the view decides what, if anything,
    that opens. Text is selectable with the mouse, as in a label.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._measured: tuple[int, int] | None = None  # (width, height) of the text as it is now
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setDocument(InertDocument(self))
        self.document().setDocumentMargin(0)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # Code keeps its lines: a line wider than the message scrolls sideways (and the view grows by the bar).
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        # A long address or code line wraps rather than running past the edge (where nothing scrolls to it).
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Base, QColor(0, 0, 0, 0))  # the message's own background shows
        self.setPalette(palette)
        self.viewport().setAutoFillBackground(False)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        return blank_resource(kind)  # what a plain document in this view would ask its view for

    def setDocument(self, document: QTextDocument) -> None:
        super().setDocument(document)
        document.contentsChanged.connect(self._text_changed)
        self._text_changed()

    def _text_changed(self) -> None:
        self._measured = None
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        """The text's height at `width`, measured once per width and text (a long text costs one layout)."""
        if self._measured is not None and self._measured[0] == width:
            return self._measured[1]
        document = self.document()
        height = fitted_height(document, width, self.fontMetrics())
        if document.size().width() > width + 1:  # a code line wider than the view: room for its scroll bar
            height += self.horizontalScrollBar().sizeHint().height()
        self._measured = (width, height)
        return height

    def sizeHint(self) -> QSize:
        width = self.width() or 400
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.fontMetrics().height())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._text_changed()
        super().changeEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()  # the chat around it scrolls


def fitted_height(document: QTextDocument, width: int, metrics: QFontMetrics) -> int:
    """The height `document` needs when laid out `width` wide; at least one line, so an empty one shows."""
    if document.textWidth() != width:
        document.setTextWidth(width)
    return max(math.ceil(document.size().height()), metrics.height())
