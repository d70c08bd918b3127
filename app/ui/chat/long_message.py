"""A very long message is shown by its beginning, with the whole text one click away.

Laying out a message's text costs time in proportion to its length, on the GUI thread, and
Qt measures a message several times when it is added and again on every width change: a
2 MB message froze the window for seconds on Send and on each resize. Breaking a line inside
a long unbroken run (a base64 blob) costs time that grows with the square of the run's length.
A message longer than `COLLAPSE_ABOVE_CHARS`, or with a run longer than `COLLAPSE_RUN_CHARS`,
shows its first `PREVIEW_CHARS` characters (cut at a line or word end), a line saying so, and
buttons that copy the whole text or show it in a window of its own: a plain-text editor that
lays out only the lines in view and breaks lines at word boundaries only.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QTextOption
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.ui.widgets.theme import Tone, set_tone

COLLAPSE_ABOVE_CHARS = 30_000
COLLAPSE_RUN_CHARS = 2_000
PREVIEW_CHARS = 3_000


def is_long(text: str) -> bool:
    """Whether laying out all of `text` would hold the window up: too long, or with too long an unbroken run."""
    return len(text) > COLLAPSE_ABOVE_CHARS or max(map(len, text.split()), default=0) > COLLAPSE_RUN_CHARS


def preview(text: str) -> str:
    """What a collapsed message shows: up to PREVIEW_CHARS, ended at a line or word end when one is near."""
    if len(text) <= PREVIEW_CHARS:
        return text
    head = text[:PREVIEW_CHARS]
    for separator in ("\n", " "):
        end = head.rfind(separator)
        if end >= PREVIEW_CHARS // 2:
            return head[:end]
    return head


class LongMessageBar(QWidget):
    """Under a collapsed message: how much of it is shown, and the whole text on demand."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._window: WholeTextWindow | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        self.note = QLabel(self)
        self.set_text(text)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.note, Tone.NOTE, small=False)
        self.note.setWordWrap(True)
        self.show_all_button = QPushButton(self.tr("Show all"), self)
        self.show_all_button.clicked.connect(self.show_all)
        self.copy_button = QPushButton(self.tr("Copy all"), self)
        self.copy_button.clicked.connect(self.copy_all)
        layout.addWidget(self.note, 1)
        layout.addWidget(self.show_all_button)
        layout.addWidget(self.copy_button)

    def set_text(self, text: str) -> None:
        """The message is now `text` (a streaming reply grew): the note counts it, the buttons give it."""
        self._text = text
        self.note.setText(
            fill(
                self.tr("Long message: the first {shown} of {total} characters are shown."),
                shown=f"{len(preview(text)):,}",
                total=f"{len(text):,}",
            )
        )

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self._text)

    def show_all(self) -> WholeTextWindow:
        """Open (or raise) a window with the whole text."""
        if self._window is None:
            self._window = WholeTextWindow(self._text, self.window())
            self._window.destroyed.connect(self._forget_window)
        self._window.show()
        self._window.raise_()
        return self._window

    def _forget_window(self) -> None:
        self._window = None


class WholeTextWindow(QDialog):
    """A long message's whole text, read-only and as typed or generated (Markdown is not rendered)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(self.tr("Whole message"))
        self.resize(800, 600)
        layout = QVBoxLayout(self)
        self.editor = QPlainTextEdit(self)
        self.editor.setReadOnly(True)
        self.editor.setAccessibleName(self.tr("Whole message"))
        # Word boundaries only: breaking inside a long run too would cost time growing with its square.
        self.editor.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self.editor.setPlainText(text)
        layout.addWidget(self.editor)
