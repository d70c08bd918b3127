"""Where the user types: Enter sends, Shift+Enter starts a new line."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget


class Composer(QPlainTextEdit):
    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
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
        """Offer the text; the window clears the composer once it has taken the message."""
        text = self.toPlainText().strip()
        if not text or not self._can_send:
            return
        self.submitted.emit(text)
