"""The rows the settings panel's sections are made of: a field built from its spec, and a text box
that says when editing ended."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from app.core.inference.sampling import FieldSpec
from app.core.support.formatting import fill
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone
from app.ui.widgets.wrapping_label import WrappingLabel


class TextBox(QPlainTextEdit):
    """A multi-line text field that, like QLineEdit, says when editing ended (focus left), and that
    Tab leaves (a tab character typed there would silently become part of the prompt)."""

    editingFinished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.editingFinished.emit()


class SettingRow:
    """One row: label, editor, the one-line explanation, and a message when a value is refused."""

    def __init__(self, spec: FieldSpec, editor: QWidget, parent: QWidget) -> None:
        self.spec = spec
        self.editor = editor
        self.label = QLabel(word(spec.label), parent)
        self.label.setBuddy(editor)
        # the label sits apart from the editor's own box, so a screen reader is told the name directly
        editor.setAccessibleName(self.label.text())
        editor.setAccessibleDescription(word(spec.explanation))
        self.explanation = WrappingLabel(word(spec.explanation), parent)
        set_tone(self.explanation, Tone.NOTE)
        self.error = WrappingLabel("", parent)
        set_tone(self.error, Tone.ERROR)
        self.error.hide()
        self.box = QWidget(parent)
        column = QVBoxLayout(self.box)
        column.setContentsMargins(0, 0, 0, 4)
        column.setSpacing(2)
        column.addWidget(editor)
        column.addWidget(self.explanation)
        column.addWidget(self.error)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def error_text(self) -> str:
        return self.error.text() if not self.error.isHidden() else ""

    def set_changed(self, changed: bool, default_text: str) -> None:
        set_bold(self.label, changed)
        self.label.setToolTip(
            fill(
                QCoreApplication.translate("SettingsPanel", "Changed for this chat; the default is {value}"),
                value=default_text,
            )
            if changed
            else ""
        )


def set_bold(label: QLabel, bold: bool) -> None:
    font = label.font()
    font.setBold(bold)
    label.setFont(font)
