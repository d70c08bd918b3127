"""What a message offers on hover: copy, edit, delete, regenerate; its version arrows; editing in place.

The action bar sits in the message's header line and shows while the pointer is over the
message or the keyboard focus is inside it, so the conversation stays calm to read. Its room
is kept while it is hidden: showing it moves nothing, so the button under the pointer (a
version arrow) is still the one that is clicked. Deleting asks first (message_menu.py). A
message with other versions always shows ◀ n/m ▶ beside it. Editing happens in the
message itself, with the message box's keys: Enter saves and continues from there, Shift+Enter
starts a new line, Esc puts the message back as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from app.core.support.formatting import fill
from app.ui.chat.composer import Composer
from app.ui.widgets.icons import STROKES, set_icon
from app.ui.widgets.theme import Tone, set_tone


class ActionBar(QWidget):
    """The buttons a message offers; the owner shows it on hover and focus."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        policy = self.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        self.buttons: dict[str, QToolButton] = {}

    def add(self, name: str, text: str, tip: str, act: Callable[[], None], enabled: bool = True) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        if name in STROKES:
            set_icon(button, name)  # the icon alone shows; the text is its accessible fallback
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.setAutoRaise(True)
        button.setEnabled(enabled)
        button.clicked.connect(act)
        self._layout.addWidget(button)
        self.buttons[name] = button
        return button

    def clear(self) -> None:
        for button in self.buttons.values():
            self._layout.removeWidget(button)
            button.deleteLater()
        self.buttons = {}


class VersionArrows(QWidget):
    """◀ 2/3 ▶: this message is one of several versions (edits or regenerated replies)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._on_step: Callable[[int], None] | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.previous = QToolButton(self)
        self.previous.setText("◀")
        self.previous.setAutoRaise(True)
        self.previous.setAccessibleName(self.tr("Previous version"))
        self.previous.setToolTip(self.tr("Previous version"))
        self.previous.clicked.connect(lambda: self._step(-1))
        self.label = QLabel(self)
        self.following = QToolButton(self)
        self.following.setText("▶")
        self.following.setAutoRaise(True)
        self.following.setAccessibleName(self.tr("Next version"))
        self.following.setToolTip(self.tr("Next version"))
        self.following.clicked.connect(lambda: self._step(1))
        layout.addWidget(self.previous)
        layout.addWidget(self.label)
        layout.addWidget(self.following)
        self.hide()

    def on_step(self, handler: Callable[[int], None]) -> None:
        """Call `handler(-1)` for the previous version and `handler(1)` for the next."""
        self._on_step = handler

    def _step(self, step: int) -> None:
        if self._on_step is not None:
            self._on_step(step)

    def show_position(self, position: int, count: int, can_switch: bool) -> None:
        self.setVisible(count > 1)
        self.label.setText(fill(self.tr("{n}/{count}"), n=position + 1, count=count))
        self.label.setAccessibleName(fill(self.tr("version {n} of {count}"), n=position + 1, count=count))
        self.previous.setEnabled(can_switch and position > 0)
        self.following.setEnabled(can_switch and position < count - 1)


class InlineEditor(Composer):
    """The message box's keys in a message being edited, and Esc to cancel."""

    cancelled = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(self.tr("Your message — Enter to continue from here, Esc to cancel"))
        self.setAccessibleName(self.tr("Edit message"))
        self.setPlainText(text)
        self.setMaximumHeight(240)
        # under the editor (its message places it): the keys, also once the placeholder is gone
        self.hint = QLabel(self.tr("Enter continues from here · Shift+Enter starts a new line · Esc cancels"), parent)
        set_tone(self.hint, Tone.NOTE)

    def event(self, event: QEvent) -> bool:
        key = event.key() if isinstance(event, QKeyEvent) else None
        if event.type() == QEvent.Type.ShortcutOverride and key == Qt.Key.Key_Escape:  # Esc cancels, not Stop
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return
        super().keyPressEvent(event)
