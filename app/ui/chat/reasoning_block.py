"""A thinking model's reasoning, in its own block above the reply's answer.

While the model thinks, the block is open and its text streams in, rendered as Markdown a few
times a second by the renderer a reply goes through (`LiveReply`, `MarkdownPieces`), and as
inert: nothing it holds is loaded, a link opens only on a click, after the reader agreed
(the message that holds the block asks). When the answer starts, the block folds to one line
that says what the thinking cost ("Thought for 12.4 s · 840 tokens"); a click or the keyboard
(Space on the focused line) opens it again. It has its own copy button; the reply's copy
copies the answer. Its text is muted and set off by a rule at its left, so it reads as a
different part of the reply in either theme. A very long reasoning shows its beginning, with
the whole text one click away (`long_message`).
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QToolButton, QToolTip, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.ui.chat.live_reply import LiveReply
from app.ui.chat.long_message import LongMessageBar, is_long, preview
from app.ui.widgets.code_blocks import copied_code
from app.ui.widgets.icons import set_icon
from app.ui.widgets.inert_text import InertTextView
from app.ui.widgets.markdown_pieces import MarkdownPieces
from app.ui.widgets.theme import Colours, keep_styled


def block_style(c: Colours) -> str:
    """A rule at the left in the bubble's border colour; no background of its own."""
    return f"ReasoningBlock {{ border: none; border-left: 3px solid {c.bubble_border}; }}"


class ReasoningBlock(QFrame):
    """The reasoning of one reply: streamed (`begin_streaming`, `append`) or shown whole (`show_text`)."""

    linkClicked = Signal(QUrl)  # a web link in the reasoning was clicked
    expandedChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._seconds = 0.0
        self._tokens = 0
        self._thinking = False
        self._began = 0.0  # time.monotonic() when the reasoning began to stream
        keep_styled(self, block_style)
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(8, 0, 0, 2)
        layout.setSpacing(2)
        self.toggle = QToolButton(self)
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab reaches it; Space opens and folds
        self.toggle.toggled.connect(self._show_expanded)
        keep_styled(self.toggle, lambda c: f"QToolButton {{ color: {c.muted}; border: none; }}")
        self.copy_button = QToolButton(self)
        self.copy_button.setText(self.tr("Copy reasoning"))
        set_icon(self.copy_button, "copy")
        self.copy_button.setAutoRaise(True)
        self.copy_button.setToolTip(self.tr("Copy the reasoning"))
        self.copy_button.setAccessibleName(self.tr("Copy the reasoning"))
        self.copy_button.clicked.connect(self.copy)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.toggle)
        header.addStretch(1)
        header.addWidget(self.copy_button)
        layout.addLayout(header)
        self.body = InertTextView(self)
        self.body.setAccessibleName(self.tr("Reasoning"))
        keep_styled(self.body, lambda c: f"color: {c.muted};")
        self.body.anchorClicked.connect(self._anchor_clicked)
        layout.addWidget(self.body)
        self.long_bar: LongMessageBar | None = None
        self.markdown = MarkdownPieces(self.body.document())
        self.stream: LiveReply | None = None
        self._show_expanded(False)

    # ---- streaming -------------------------------------------------------------------

    def begin_streaming(self) -> None:
        """Open, saying the model is thinking, and show what streams in a few times a second."""
        self._thinking = True
        self._began = time.monotonic()
        self.stream = LiveReply(lambda text: self._render(text, streaming=True), self)
        self.set_expanded(True)

    def append(self, text: str) -> None:
        assert self.stream is not None, "begin_streaming() first"
        self.stream.append(text)

    @property
    def streaming(self) -> bool:
        return self.stream is not None

    def streamed_text(self) -> str:
        return self.stream.text() if self.stream is not None else self._text

    def end_streaming(self) -> None:
        """The reasoning is over (the answer started, or the reply ended): render it whole."""
        if self.stream is None:
            return
        text = self.stream.text()
        self.stream.stop()
        self.stream.deleteLater()
        self.stream = None
        self._thinking = False
        self._seconds = time.monotonic() - self._began  # until the reply's stats say exactly
        self._render(text, streaming=False)

    # ---- whole text, cost, folding ---------------------------------------------------------

    def show_text(self, text: str) -> None:
        """Show the whole reasoning (a finished or reopened reply)."""
        self.end_streaming()
        self._thinking = False
        self._render(text, streaming=False)

    def text(self) -> str:
        """The whole reasoning shown so far (a long one is more than the body shows)."""
        return self._text

    def set_cost(self, seconds: float, tokens: int) -> None:
        """What the thinking took: seconds and tokens, 0 where not known."""
        self._seconds, self._tokens = seconds, tokens
        self._show_summary()

    @property
    def expanded(self) -> bool:
        return self.toggle.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        self.toggle.setChecked(expanded)
        self._show_expanded(expanded)

    def summary(self) -> str:
        """The block's one line: thinking now, or what the thinking cost."""
        if self._thinking:
            return self.tr("Thinking…")
        parts = [fill(self.tr("Thought for {seconds} s"), seconds=f"{self._seconds:.1f}")] if self._seconds > 0 else []
        if self._tokens == 1:
            parts.append(self.tr("1 token"))
        elif self._tokens:
            parts.append(self.tr("%n tokens", "", self._tokens))
        if not parts:
            return self.tr("Reasoning")
        if not self._seconds:
            parts.insert(0, self.tr("Thought"))
        return " · ".join(parts)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self._text)
        QToolTip.showText(QCursor.pos(), self.tr("Reasoning copied"), self.copy_button)

    # ---- internals -------------------------------------------------------------------

    def _show_expanded(self, expanded: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.toggle.setToolTip(self.tr("Hide the reasoning") if expanded else self.tr("Show the reasoning"))
        self.body.setVisible(expanded)
        if self.long_bar is not None:
            self.long_bar.setVisible(expanded)
        self._show_summary()
        self.expandedChanged.emit(expanded)

    def _show_summary(self) -> None:
        self.toggle.setText(self.summary())
        self.toggle.setAccessibleName(self.summary())

    def _render(self, text: str, streaming: bool) -> None:
        self._text = text
        shown = text
        if is_long(text):
            shown = preview(text)
            if self.long_bar is None:
                self.long_bar = LongMessageBar(text, self)
                self._column.addWidget(self.long_bar)
                self.long_bar.setVisible(self.expanded)
            else:
                self.long_bar.set_text(text)
        self.markdown.show(shown, streaming=streaming)
        self._show_summary()

    def _anchor_clicked(self, url: QUrl) -> None:
        code = copied_code(self.body.document(), url)
        if code is None:
            self.linkClicked.emit(url)
            return
        QGuiApplication.clipboard().setText(code)
        QToolTip.showText(QCursor.pos(), self.tr("Code copied"), self.body)
