"""One tool call as a step of the reply: the tool, its server, its arguments as formatted JSON; the
user's Allow once / Always allow this tool / Deny while it waits; then its result, folded under it.

Everything shown is plain text (the arguments and the result are what a model and a server wrote:
nothing in them is loaded, rendered or run). The result's line says its size, or that it is an
error and why; a click or Space on that line opens the whole text.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.support.formatting import fill
from app.core.turn.tool_rounds import Approval, CallRecord, CallRequest
from app.ui.widgets.theme import Colours, Tone, keep_styled, set_tone

ARGUMENTS_MAX_HEIGHT = 120
RESULT_MAX_HEIGHT = 240


def step_style(c: Colours) -> str:
    return f"ToolCallStep {{ border: none; border-left: 3px solid {c.bubble_border}; }}"


def formatted_arguments(arguments: str) -> str:
    """The arguments as indented JSON; the model's own text when it is not JSON."""
    try:
        return json.dumps(json.loads(arguments), indent=2, ensure_ascii=False)
    except ValueError:
        return arguments


def plain_view(text: str, max_height: int, parent: QWidget) -> QPlainTextEdit:
    view = QPlainTextEdit(parent)
    view.setReadOnly(True)
    view.setPlainText(text)
    view.setMaximumHeight(max_height)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return view


class ToolCallStep(QFrame):
    answered = Signal(object)  # Approval: the user's answer to the call

    def __init__(self, request: CallRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.call_id = request.call.id
        keep_styled(self, step_style)
        column = self._column = QVBoxLayout(self)
        column.setContentsMargins(8, 2, 0, 2)
        column.setSpacing(2)
        server = request.server or "?"
        self.title = QLabel(fill(self.tr("Tool call: {tool} on {server}"), tool=request.call.name, server=server), self)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.title, Tone.HEADER)
        column.addWidget(self.title)
        self.arguments = plain_view(formatted_arguments(request.call.arguments), ARGUMENTS_MAX_HEIGHT, self)
        self.arguments.setAccessibleName(self.tr("Arguments of the tool call"))
        column.addWidget(self.arguments)
        self.status = QLabel(self)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.status, Tone.NOTE)
        self.status.hide()
        column.addWidget(self.status)
        self.buttons: dict[Approval, QPushButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for approval, label in (
            (Approval.ONCE, self.tr("Allow &once")),
            (Approval.ALWAYS, self.tr("&Always allow this tool")),
            (Approval.DENY, self.tr("&Deny")),
        ):
            button = QPushButton(label, self)
            button.clicked.connect(lambda _checked=False, chosen=approval: self.answer(chosen))
            row.addWidget(button)
            self.buttons[approval] = button
        row.addStretch(1)
        column.addLayout(row)
        self.result_toggle: QToolButton | None = None
        self.result: QPlainTextEdit | None = None
        self.set_asking(False)

    @property
    def asking(self) -> bool:
        return not self.buttons[Approval.ONCE].isHidden()

    def set_asking(self, asking: bool) -> None:
        """Show the three answers (and put the keyboard on the first), or hide them."""
        for button in self.buttons.values():
            button.setVisible(asking)
        if asking:
            self.buttons[Approval.ONCE].setFocus(Qt.FocusReason.OtherFocusReason)
            self._say(self.tr("Run this tool?"))

    def answer(self, approval: Approval) -> None:
        if not self.asking:
            return
        self.set_asking(False)
        self._say(self.tr("Denied") if approval is Approval.DENY else self.tr("Running…"))
        self.answered.emit(approval)

    def unanswered(self) -> None:
        """The turn ended while the call waited: it did not run."""
        if self.asking:
            self.set_asking(False)
            self._say(self.tr("Not run: the reply was stopped"))

    def show_result(self, record: CallRecord) -> None:
        """What came back (or why nothing did), folded under a line that says its size."""
        self.set_asking(False)
        self.status.hide()
        if self.result_toggle is None:
            toggle = self.result_toggle = QToolButton(self)
            toggle.setCheckable(True)
            toggle.setAutoRaise(True)
            toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            toggle.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            toggle.toggled.connect(self._show_result_text)
            self.result = plain_view("", RESULT_MAX_HEIGHT, self)
            self.result.setAccessibleName(self.tr("Result of the tool call"))
            self._column.addWidget(toggle)
            self._column.addWidget(self.result)
        assert self.result is not None
        self.result.setPlainText(record.result)
        self.result_toggle.setText(self.result_summary(record))
        self.result_toggle.setAccessibleName(self.result_toggle.text())
        self.result_toggle.setChecked(False)
        self._show_result_text(False)

    def result_summary(self, record: CallRecord) -> str:
        if record.is_error:
            first = record.result.strip().splitlines()[0] if record.result.strip() else ""
            return fill(self.tr("Error: {why}"), why=first)
        size = len(record.result)
        took = fill(self.tr(" · {seconds} s"), seconds=f"{record.seconds:.2f}") if record.seconds else ""
        return fill(self.tr("Result · {size} characters"), size=f"{size:,}") + took

    def _show_result_text(self, shown: bool) -> None:
        if self.result_toggle is not None and self.result is not None:
            self.result_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
            self.result.setVisible(shown)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))
