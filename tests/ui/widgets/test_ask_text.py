"""A short question's dialog is wide enough for its title, and answers with the text or None."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QInputDialog, QWidget
from pytestqt.qtbot import QtBot

from app.ui.widgets.ask_text import TITLE_BAR_ROOM, ask_item, ask_text


def answer(accept: bool, text: str = "", widths: list[tuple[int, int]] | None = None) -> None:
    """When the dialog is up, type `text` and press OK (or Cancel)."""

    def act() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(10, act)
            return
        if widths is not None:  # as shown: its width, and what its title needs
            widths.append((dialog.width(), dialog.fontMetrics().horizontalAdvance(dialog.windowTitle())))
        if text:
            dialog.setTextValue(text)
        dialog.done(QInputDialog.DialogCode.Accepted if accept else QInputDialog.DialogCode.Rejected)

    QTimer.singleShot(0, act)


def test_the_dialog_is_wide_enough_for_its_whole_title(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    widths: list[tuple[int, int]] = []
    answer(True, "Papers", widths)
    assert ask_text(parent, "A rather long title for a dialog asking for a name", "Name:") == "Papers"
    ((width, title),) = widths
    assert width >= title + TITLE_BAR_ROOM


def test_cancel_answers_none_and_a_choice_answers_the_item(qtbot: QtBot) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    answer(False)
    assert ask_text(parent, "New collection", "Name:", "old") is None
    answer(True)
    assert ask_item(parent, "Remove", "Which:", ["a", "b"]) == "a"
