"""Short questions in a small dialog (a name, a choice) whose title is never cut.

Qt sizes QInputDialog to its field, and a window manager elides a title wider than the window
("New c…ection"); these dialogs are made wide enough for their title (and the title bar's
buttons) first.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox, QDialog, QInputDialog, QLineEdit, QWidget

TITLE_BAR_ROOM = 160  # the window manager's icon and buttons beside the title, in pixels


def ask_text(parent: QWidget, title: str, label: str, text: str = "") -> str | None:
    """The text typed, or None when the dialog was cancelled."""
    dialog = _dialog(parent, title, label)
    dialog.setTextValue(text)
    fit_title(dialog)
    return dialog.textValue() if dialog.exec() == QDialog.DialogCode.Accepted else None


def ask_item(parent: QWidget, title: str, label: str, items: Sequence[str]) -> str | None:
    """One of `items` (the first chosen at first), or None when the dialog was cancelled."""
    dialog = _dialog(parent, title, label)
    dialog.setComboBoxItems(list(items))
    dialog.setComboBoxEditable(False)
    fit_title(dialog)
    return dialog.textValue() if dialog.exec() == QDialog.DialogCode.Accepted else None


def _dialog(parent: QWidget, title: str, label: str) -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    return dialog


def fit_title(dialog: QInputDialog) -> None:
    """Make `dialog` about as wide as its title needs (in the application's font, the title bar's) with room
    for the title bar's buttons. Its layout sets the dialog's own minimum from its children, so the field
    (made by then) is the one given the width."""
    needed = dialog.fontMetrics().horizontalAdvance(dialog.windowTitle()) + TITLE_BAR_ROOM
    for field in dialog.findChildren(QLineEdit) + dialog.findChildren(QComboBox):
        field.setMinimumWidth(max(field.minimumWidth(), needed))
