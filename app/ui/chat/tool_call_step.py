"""One tool call as a step of the reply: the tool, its server, its arguments as formatted JSON; the
user's Allow once / Always allow this tool / Deny while it waits; then its result, folded under it.

Everything shown is plain text (the arguments and the result are what a model and a server wrote:
nothing in them is loaded, rendered or run). The result's line says its size (in the loaded model's
tokens, as counted on the worker's thread, and in characters) and the cap on what Glassbox keeps of a
result (said on the line when the result was cut, in its tooltip always), or that it is an error and
why; a click or Space on that line opens the whole text.

Images in the result show as thumbnails under the result's line (app/ui/chat/tool_images.py: decoded
as raster images by Qt, nothing else, size capped), also when the chat is opened again.

A call is kept with its reply (`SavedCall`, in the reply's stats under `STATS_KEY`), so a reopened
chat shows its steps as they ran. This module does not import the MCP SDK: the chat can show saved
calls without starting anything.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

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

from app.core.support.formatting import fill, format_bytes
from app.ui.chat.tool_images import MAX_IMAGES, ImageStrip
from app.ui.widgets.theme import Colours, Tone, keep_styled, set_tone

ARGUMENTS_MAX_HEIGHT = 120
RESULT_MAX_HEIGHT = 240
STATS_KEY = "tool_calls"  # a reply's calls, in the order they ran
ONCE, ALWAYS, DENY = "once", "always", "deny"  # the answers (app.core.turn.tool_rounds.Approval's values)


@dataclass(frozen=True)
class SavedCall:
    """One call as its reply keeps it: what the model asked, and what it read back."""

    server: str
    tool: str
    arguments: str  # the JSON text the model wrote
    result: str = ""
    is_error: bool = False
    seconds: float = 0.0
    tokens: int = 0  # the result's tokens with the model that read it (0: not counted)
    size_bytes: int = 0  # the whole result as the server sent it
    cap_bytes: int = 0  # what Glassbox keeps of a result (0: not known)
    images: tuple[str, ...] = ()  # thumbnails of the result's images, PNG in base64 (tool_images.py)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def cut(self) -> bool:
        """Whether the result was larger than the cap, and cut."""
        return bool(self.cap_bytes) and self.size_bytes > self.cap_bytes

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SavedCall | None:
        """None for an entry that is not a call (the history may come from another version)."""
        server, tool, arguments, result = (data.get(key) for key in ("server", "tool", "arguments", "result"))
        if not (isinstance(server, str) and isinstance(tool, str) and isinstance(arguments, str)):
            return None
        seconds = data.get("seconds")
        return cls(
            server,
            tool,
            arguments,
            result if isinstance(result, str) else "",
            is_error=data.get("is_error") is True,
            seconds=float(seconds) if isinstance(seconds, int | float) else 0.0,
            tokens=_count(data.get("tokens")),
            size_bytes=_count(data.get("size_bytes")),
            cap_bytes=_count(data.get("cap_bytes")),
            images=_thumbnails(data.get("images")),
        )


def _thumbnails(value: object) -> tuple[str, ...]:
    """Saved thumbnails (none for what is not a list of texts; each is checked when shown)."""
    if not isinstance(value, list | tuple):
        return ()
    return tuple(item for item in value if isinstance(item, str))[:MAX_IMAGES]


def _count(value: object) -> int:
    """A saved count (0 for what is not one)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def saved_calls(stats: Mapping[str, Any] | None) -> list[SavedCall]:
    """The calls a saved reply ran, from its stats (none when it ran none)."""
    entries = stats.get(STATS_KEY) if stats else None
    if not isinstance(entries, list):
        return []
    calls = (SavedCall.from_dict(entry) for entry in entries if isinstance(entry, Mapping))
    return [call for call in calls if call is not None]


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
    answered = Signal(str)  # the user's answer to the call: ONCE, ALWAYS or DENY

    def __init__(self, server: str, tool: str, arguments: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        keep_styled(self, step_style)
        column = self._column = QVBoxLayout(self)
        column.setContentsMargins(8, 2, 0, 2)
        column.setSpacing(2)
        self.title = QLabel(fill(self.tr("Tool call: {tool} on {server}"), tool=tool, server=server or "?"), self)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.title, Tone.HEADER)
        column.addWidget(self.title)
        self.arguments = plain_view(formatted_arguments(arguments), ARGUMENTS_MAX_HEIGHT, self)
        self.arguments.setAccessibleName(self.tr("Arguments of the tool call"))
        column.addWidget(self.arguments)
        self.status = QLabel(self)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        set_tone(self.status, Tone.NOTE)
        self.status.hide()
        column.addWidget(self.status)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for approval, label in (
            (ONCE, self.tr("Allow &once")),
            (ALWAYS, self.tr("&Always allow this tool")),
            (DENY, self.tr("&Deny")),
        ):
            button = QPushButton(label, self)
            button.clicked.connect(lambda _checked=False, chosen=approval: self.answer(chosen))
            row.addWidget(button)
            self.buttons[approval] = button
        row.addStretch(1)
        column.addLayout(row)
        self.result_toggle: QToolButton | None = None
        self.result: QPlainTextEdit | None = None
        self.images: ImageStrip | None = None
        self.set_asking(False)

    @property
    def asking(self) -> bool:
        return not self.buttons[ONCE].isHidden()

    def set_asking(self, asking: bool) -> None:
        """Show the three answers (and put the keyboard on the first), or hide them."""
        for button in self.buttons.values():
            button.setVisible(asking)
        if asking:
            self.buttons[ONCE].setFocus(Qt.FocusReason.OtherFocusReason)
            self._say(self.tr("Run this tool?"))

    def answer(self, approval: str) -> None:
        if not self.asking:
            return
        self.set_asking(False)
        self._say(self.tr("Denied") if approval == DENY else self.tr("Running…"))
        self.answered.emit(approval)

    def unanswered(self) -> None:
        """The turn ended while the call waited: it did not run."""
        if self.asking:
            self.set_asking(False)
            self._say(self.tr("Not run: the reply was stopped"))

    def show_result(self, record: SavedCall) -> None:
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
        if self.images is None and record.images:
            self.images = ImageStrip(record.images, self)
            self._column.insertWidget(self._column.indexOf(self.result), self.images)
            self.images.show()  # shown with the result's line, not folded with its text
        self.result.setPlainText(record.result)
        self.result_toggle.setText(self.result_summary(record))
        self.result_toggle.setAccessibleName(self.result_toggle.text())
        self.result_toggle.setToolTip(self.cap_note(record))
        self.result_toggle.setChecked(False)
        self._show_result_text(False)

    def result_summary(self, record: SavedCall) -> str:
        if record.is_error:
            first = record.result.strip().splitlines()[0] if record.result.strip() else ""
            return fill(self.tr("Error: {why}"), why=first)
        size = len(record.result)
        took = fill(self.tr(" · {seconds} s"), seconds=f"{record.seconds:.2f}") if record.seconds else ""
        if record.tokens == 1:
            tokens = self.tr("1 token · ")
        elif record.tokens:
            tokens = fill(self.tr("{tokens} tokens · "), tokens=f"{record.tokens:,}")
        else:
            tokens = ""
        cut = ""
        if record.cut:
            whole, cap = format_bytes(record.size_bytes), format_bytes(record.cap_bytes)
            cut = fill(self.tr(" · cut to {cap} of {whole}"), cap=cap, whole=whole)
        return fill(self.tr("Result · {tokens}{size} characters"), tokens=tokens, size=f"{size:,}") + cut + took

    def cap_note(self, record: SavedCall) -> str:
        """What Glassbox keeps of a result, and what the model read ("" when the cap is not known)."""
        if not record.cap_bytes:
            return ""
        note = fill(
            self.tr("Glassbox keeps up to {cap} of a tool's result; the model reads what is kept."),
            cap=format_bytes(record.cap_bytes),
        )
        if record.tokens:
            note += "\n" + fill(self.tr("The model read {tokens} tokens of it."), tokens=f"{record.tokens:,}")
        return note

    def _show_result_text(self, shown: bool) -> None:
        if self.result_toggle is not None and self.result is not None:
            self.result_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
            self.result.setVisible(shown)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))


def saved_steps(stats: Mapping[str, Any] | None, parent: QWidget | None) -> list[ToolCallStep]:
    """The steps of a saved reply's calls, each with its result folded under it."""
    steps = []
    for call in saved_calls(stats):
        step = ToolCallStep(call.server, call.tool, call.arguments, parent)
        step.show_result(call)
        steps.append(step)
    return steps
