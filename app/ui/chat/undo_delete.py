"""The strip that offers to take a delete back: "Message deleted · Undo" over the chat's top for a while.

A delete is one click (the hover button, the message's menu) and is undone as easily: the
removed messages are kept aside by the storage worker until the offer ends, and Undo puts
them back as they were. The offer ends — the delete is final — after `UNDO_SECONDS`, with
its ✕, when another delete takes its place, or when the chat moves on (another chat on
show, a new reply). Ctrl+Z undoes it too, where the focus is not in a text field (there
Ctrl+Z undoes typing).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from app.ui.widgets.error_banner import notice_style
from app.ui.widgets.theme import keep_styled

UNDO_SECONDS = 10


class UndoDelete(QFrame):
    undone = Signal(str)  # message id: put the deleted message back
    finished = Signal(str)  # message id: the delete is final

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("Notice")  # looks like the banner's notices
        self.setProperty("severity", "info")
        keep_styled(self, notice_style)
        self.pending: str | None = None  # the message whose delete can still be undone
        self.chat_id = ""  # the chat it was deleted from
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 4, 8, 4)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        layout.addWidget(self.label, 1)
        self.undo_button = QPushButton(self.tr("U&ndo"), self)
        self.undo_button.setToolTip(self.tr("Bring the deleted messages back (Ctrl+Z)"))
        self.undo_button.clicked.connect(self.undo)
        layout.addWidget(self.undo_button)
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip(self.tr("Dismiss (the delete stays)"))
        close.clicked.connect(self.finish)
        layout.addWidget(close)
        self._shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Undo), self)
        self._shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self._shortcut.activated.connect(self.undo)
        self._shortcut.setEnabled(False)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(UNDO_SECONDS * 1000)
        self.timer.timeout.connect(self.finish)
        self.hide()

    def offer(self, message_id: str, chat_id: str, following: int, versions: int) -> None:
        """Say what was deleted and offer Undo; a delete offered before becomes final."""
        self.finish()
        self.pending, self.chat_id = message_id, chat_id
        self.label.setText(self.describe(following, versions))
        self._shortcut.setEnabled(True)
        self.show()
        self.timer.start()

    def describe(self, following: int, versions: int) -> str:
        """What went: a message or a version (its other versions stay), and how many messages after it."""
        if versions > 1:
            if following:
                return self.tr(
                    "Version and the %n message(s) after it deleted; the other versions stay.", "", following
                )
            return self.tr("Version deleted; the other versions stay.")
        if following:
            return self.tr("Message and the %n message(s) after it deleted.", "", following)
        return self.tr("Message deleted.")

    def undo(self) -> None:
        """Take the delete back."""
        message_id = self._close_offer()
        if message_id is not None:
            self.undone.emit(message_id)

    def finish(self) -> None:
        """The offer ends: the delete pending, if any, is final."""
        message_id = self._close_offer()
        if message_id is not None:
            self.finished.emit(message_id)

    def _close_offer(self) -> str | None:
        message_id, self.pending = self.pending, None
        self.timer.stop()
        self._shortcut.setEnabled(False)
        self.hide()
        return message_id
