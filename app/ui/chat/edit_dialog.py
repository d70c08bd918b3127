"""Edit a message in a dialog (Chat → Edit last message…, the message menu's Edit and continue…).

Submitted from the keyboard as well as with the mouse: Ctrl+Enter (the hint under the text
says so) or the access key of Continue; Enter alone starts a new line, Esc cancels.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from app.ui.widgets.screen_fit import resize_to_fit
from app.ui.widgets.theme import Tone, set_tone


class EditMessageDialog(QDialog):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit and continue"))
        layout = QVBoxLayout(self)
        prompt = QLabel(self.tr("Your message (the old version and its replies are kept):"), self)
        self.editor = QPlainTextEdit(self)
        self.editor.setPlainText(text)
        self.editor.setAccessibleName(self.tr("Your message"))
        prompt.setBuddy(self.editor)
        self.hint = QLabel(self.tr("Ctrl+Enter continues from the new text; Esc cancels."), self)
        set_tone(self.hint, Tone.NOTE)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.continue_button = buttons.addButton(self.tr("&Continue"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.editor.installEventFilter(self)  # Ctrl+Enter in the text submits
        layout.addWidget(prompt)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.hint)
        layout.addWidget(buttons)
        resize_to_fit(self, 560, 360)
        self.editor.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.editor and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            is_enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            if is_enter and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                self.accept()
                return True
        return super().eventFilter(watched, event)

    def text(self) -> str:
        return self.editor.toPlainText()


def ask_edited_text(text: str, parent: QWidget | None) -> str | None:
    """The message as the user edited it, or None when cancelled."""
    dialog = EditMessageDialog(text, parent)
    return dialog.text() if dialog.exec() == QDialog.DialogCode.Accepted else None
