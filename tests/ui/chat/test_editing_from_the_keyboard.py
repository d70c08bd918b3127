"""Editing a message works from the keyboard: the dialog submits with Ctrl+Enter or its access key, the
inline editor says which keys do what."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.chat.edit_dialog import EditMessageDialog, ask_edited_text
from app.ui.chat.view import ChatView


def when_dialog_opens(act: Callable[[EditMessageDialog], None]) -> None:
    """Run `act` on the edit dialog once it is open; it is closed afterwards in any case (a test never hangs)."""

    def attempt() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, EditMessageDialog):
            QTimer.singleShot(10, attempt)
            return
        try:
            act(dialog)
        finally:
            if dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(0, attempt)


def test_ctrl_enter_submits_the_edited_message(qtbot: QtBot) -> None:
    answers: list[str | None] = []

    def type_and_submit(dialog: EditMessageDialog) -> None:
        dialog.editor.moveCursor(dialog.editor.textCursor().MoveOperation.End)
        qtbot.keyClicks(dialog.editor, " and a fruit")
        qtbot.keyClick(dialog.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    when_dialog_opens(type_and_submit)
    answers.append(ask_edited_text("Name a colour", None))
    assert answers == ["Name a colour and a fruit"]


def test_enter_alone_starts_a_new_line_and_esc_cancels(qtbot: QtBot) -> None:
    seen: list[str] = []

    def new_line_then_cancel(dialog: EditMessageDialog) -> None:
        dialog.editor.moveCursor(dialog.editor.textCursor().MoveOperation.End)
        qtbot.keyClick(dialog.editor, Qt.Key.Key_Return)
        seen.append(dialog.text() if dialog.isVisible() else "closed")
        qtbot.keyClick(dialog.editor, Qt.Key.Key_Escape)

    when_dialog_opens(new_line_then_cancel)
    assert ask_edited_text("Name a colour", None) is None
    assert seen == ["Name a colour\n"]


def test_the_dialog_says_its_keys_and_continue_has_an_access_key(qtbot: QtBot) -> None:
    dialog = EditMessageDialog("Name a colour")
    qtbot.addWidget(dialog)
    assert dialog.continue_button.text() == "&Continue"
    assert "Ctrl+Enter" in dialog.hint.text()


def test_the_inline_editor_says_what_enter_does(view: ChatView, qtbot: QtBot) -> None:
    widget = view.add_message("user", "Name a colour.", key="m1")
    editor = widget.begin_edit()
    qtbot.waitUntil(editor.hint.isVisible)
    assert "Enter continues" in editor.hint.text() and "Esc" in editor.hint.text()
    widget.end_edit()
    assert not editor.hint.isVisible()
