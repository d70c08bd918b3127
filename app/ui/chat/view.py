"""The chat pane: one widget per message, and a cost per streamed token that does not grow with the chat.

Finished messages live in a container that places them itself and has a fixed height, so
Qt's layout never asks it, or any of its messages, for a height-for-width while a reply
streams (a QVBoxLayout there would re-measure the text of every message on every token).
The streaming message sits beside it in the outer layout; growing it relays out two items.
Streamed text shows at once, then at most once every FLUSH_INTERVAL_MS (what comes sooner
waits for a one-off timer, so a reply does not wake the GUI thread more often than its text
arrives); the streaming reply is rendered as
Markdown a few times a second (`live_reply`), by the renderer a finished reply goes through
(`app.ui.widgets.markdown_pieces`), so its look does not change when it ends.

What a message contains is inert: its text is shown in documents that load nothing (see
`app.ui.widgets.inert_text`), a finished reply's Markdown keeps no image and no link but a
web one (`app.ui.widgets.markdown`), and a link opens only when clicked, after the reader
has seen its address and agreed. A very long message shows its beginning (`long_message`).
A thinking model's reasoning streams in its own block above the answer (`reasoning_block`).
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QCursor,
    QDesktopServices,
    QEnterEvent,
    QFocusEvent,
    QGuiApplication,
    QResizeEvent,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QScrollArea,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from app.core.support.formatting import fill
from app.core.types.replies import ReplyPart
from app.ui.chat.live_reply import LiveReply
from app.ui.chat.long_message import LongMessageBar, is_long, preview
from app.ui.chat.message_actions import ActionBar, InlineEditor, VersionArrows
from app.ui.chat.message_images import MessageImages
from app.ui.chat.reasoning_block import ReasoningBlock
from app.ui.turn.reply_parts import joined_runs
from app.ui.widgets.code_blocks import copied_code
from app.ui.widgets.inert_text import InertTextView
from app.ui.widgets.links import display_address, web_address
from app.ui.widgets.markdown_pieces import MarkdownPieces
from app.ui.widgets.theme import Colours, Tone, keep_styled, set_tone

FLUSH_INTERVAL_MS = 30
BOTTOM_TOLERANCE_PX = 24


def bubble_style(role: str, outside_window: bool, c: Colours) -> str:
    """A message card in the theme's colours: the user's tinted, the assistant's framed, a dropped one dashed."""
    if outside_window:
        dashed = f"border: 1px dashed {c.outside_border};"
        return f"MessageWidget {{ background: {c.outside_bubble}; {dashed} border-radius: 8px; }}"
    background = {"user": c.user_bubble, "system": c.system_bubble}.get(role, c.assistant_bubble)
    border = f"border: 1px solid {c.bubble_border};" if role == "assistant" else ""
    return f"MessageWidget {{ background: {background}; {border} border-radius: 8px; }}"


class MessageWidget(QFrame):
    """One message: who said it, the text, and a footer (reply stats, or 'outside the context window').

    `text` is always the whole message; a long one shows only its beginning in `body`, with a
    `long_bar` under it that copies or shows the whole text.
    """

    linkClicked = Signal(QUrl)  # a link in the text was clicked (only web links are links)

    def __init__(self, role: str, key: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = role
        self.key = key
        self.text = ""
        self._outside_window = False
        keep_styled(self, lambda c: bubble_style(self.role, self._outside_window, c))
        layout = self._column = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(2)
        self.header = QLabel(self._role_title(role), self)
        set_tone(self.header, Tone.HEADER)
        self.setAccessibleName(self.header.text())  # a screen reader names each message by who wrote it
        self.body = InertTextView(self)
        self.body.setAccessibleName(self.header.text())
        self.body.anchorClicked.connect(self._anchor_clicked)
        self.long_bar: LongMessageBar | None = None
        self.footer = QLabel(self)
        set_tone(self.footer, Tone.NOTE)
        self.footer.setTextFormat(Qt.TextFormat.PlainText)
        self.footer.setWordWrap(True)
        self.footer.hide()
        self.action_bar = ActionBar(self)
        self.action_bar.hide()  # its room is kept (ActionBar): showing it on hover moves nothing
        self.versions = VersionArrows(self)
        header_row = QHBoxLayout()
        header_row.setContentsMargins(0, 0, 0, 0)
        header_row.addWidget(self.header)
        header_row.addStretch(1)
        header_row.addWidget(self.versions)
        header_row.addWidget(self.action_bar)
        layout.addLayout(header_row)
        layout.addWidget(self.body)
        layout.addWidget(self.footer)
        self.markdown = MarkdownPieces(self.body.document())
        self.stream: LiveReply | None = None
        self.editor: InlineEditor | None = None
        self.reasoning: ReasoningBlock | None = None  # a thinking model's reasoning, above the answer

    # ---- hover actions and editing in place -----------------------------------------------

    def enterEvent(self, event: QEnterEvent) -> None:
        self.action_bar.setVisible(bool(self.action_bar.buttons) and self.editor is None)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        focused = QApplication.focusWidget()
        if focused is None or not self.isAncestorOf(focused):
            self.action_bar.hide()
        super().leaveEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        self.action_bar.setVisible(bool(self.action_bar.buttons) and self.editor is None)
        super().focusInEvent(event)

    def begin_edit(self) -> InlineEditor:
        """Show the text in an editor in place of the body; `end_edit` puts the body back."""
        self.end_edit()
        self.editor = InlineEditor(self.text, self)
        self._column.insertWidget(self._column.indexOf(self.body), self.editor)
        self._column.insertWidget(self._column.indexOf(self.editor) + 1, self.editor.hint)
        self.body.hide()
        self.action_bar.hide()
        self.editor.setFocus()
        self.editor.moveCursor(QTextCursor.MoveOperation.End)
        return self.editor

    def end_edit(self) -> None:
        if self.editor is not None:
            self.editor.hide()
            self.editor.hint.hide()
            self.editor.hint.deleteLater()
            self.editor.deleteLater()
            self.editor = None
            self.body.show()

    def _anchor_clicked(self, url: QUrl) -> None:
        code = copied_code(self.body.document(), url)
        if code is None:
            self.linkClicked.emit(url)
            return
        QGuiApplication.clipboard().setText(code)
        QToolTip.showText(QCursor.pos(), self.tr("Code copied"), self.body)

    def _role_title(self, role: str) -> str:
        titles = {"user": self.tr("You"), "assistant": self.tr("Assistant"), "system": self.tr("System prompt")}
        return titles.get(role, role)

    def begin_streaming(self) -> None:
        """Show streamed text rendered as Markdown, a few times a second, until the reply is done."""
        self.stream = LiveReply(self._show_streamed, self)
        self.body.setPlaceholderText("…")  # until the first text

    def append_text(self, text: str) -> None:
        assert self.stream is not None, "begin_streaming() first"
        if self.reasoning is not None and self.reasoning.streaming:  # the answer starts: the reasoning folds
            self.reasoning.end_streaming()
            self.reasoning.set_expanded(False)
            self.body.show()
        self.stream.append(text)

    def append_reasoning(self, text: str) -> None:
        """More of the reply's reasoning, streamed into its block above the answer."""
        assert self.stream is not None, "begin_streaming() first"
        block = self.reasoning
        if block is None:
            block = self._reasoning_block()
            block.begin_streaming()
            self.body.hide()  # until the answer starts
        if block.streaming:
            block.append(text)
        else:  # reasoning after the answer began (a server that interleaves them): shown, not lost
            block.show_text(block.text() + text)

    def show_reasoning(self, text: str, seconds: float = 0.0, tokens: int = 0) -> None:
        """The reply's whole reasoning and what it cost (a finished or reopened reply); folded when an
        answer follows it, open when the reply ended inside it. Nothing for a reply without reasoning."""
        if not text and self.reasoning is None:
            return
        block = self._reasoning_block()
        block.show_text(text)
        block.set_cost(seconds, tokens)
        has_answer = bool(self.text)
        block.set_expanded(not has_answer)
        self.body.setVisible(has_answer)

    def _reasoning_block(self) -> ReasoningBlock:
        if self.reasoning is None:
            self.reasoning = ReasoningBlock(self)
            self.reasoning.linkClicked.connect(self.linkClicked)
            self._column.insertWidget(self._column.indexOf(self.body), self.reasoning)
        return self.reasoning

    def streamed_text(self) -> str:
        return self.stream.text() if self.stream is not None else ""

    def set_plain_text(self, text: str) -> None:
        self.body.document().setPlainText(self._shown_part(text))
        self.markdown.forget()

    def set_markdown(self, text: str) -> None:
        """Show `text` rendered; for a streamed reply, what streaming showed already stays as it is."""
        if self.stream is not None:
            self.stream.stop()
            self.stream.deleteLater()
            self.stream = None
            self.body.setPlaceholderText("")
        self.markdown.show(self._shown_part(text))

    def _show_streamed(self, text: str) -> None:
        self.markdown.show(self._shown_part(text), streaming=True)

    def _shown_part(self, text: str) -> str:
        """Keep the whole text; return what the body shows, with the long-message bar when it is not all of it."""
        self.text = text
        if not is_long(text):
            if self.long_bar is not None:
                self.long_bar.hide()
                self.long_bar.deleteLater()
                self.long_bar = None
            return text
        if self.long_bar is None:
            self.long_bar = LongMessageBar(text, self)
            self._column.insertWidget(self._column.indexOf(self.body) + 1, self.long_bar)
        else:  # a streaming reply that grows
            self.long_bar.set_text(text)
        return preview(text)

    def show_images(self, images: tuple[Path, ...]) -> None:
        """The message's images as thumbnails above its text (a message of images alone shows no text)."""
        if images:
            self._column.insertWidget(self._column.indexOf(self.body), MessageImages(images, self))
            self.body.setVisible(bool(self.text))

    def set_footer(self, text: str) -> None:
        self.footer.setText(text)
        self.footer.setVisible(bool(text))

    def add_step(self, widget: QWidget) -> None:
        """Put a step of the turn (a tool call) above the answer, after the steps before it."""
        self._column.insertWidget(self._column.indexOf(self.body), widget)

    def add_below(self, widget: QWidget) -> None:
        """Put a widget under the footer (the sources of a reply, the "recalled" note)."""
        self._column.addWidget(widget)

    def set_outside_window(self, outside: bool) -> None:
        """Grey out a message the model no longer sees (it fell out of the context window)."""
        if outside == self._outside_window:
            return
        self._outside_window = outside
        keep_styled(self, lambda c: bubble_style(self.role, self._outside_window, c))
        outside_tip = self.tr("Outside the context window: the model no longer sees this message.")
        self.setToolTip(outside_tip if outside else "")

    @property
    def outside_window(self) -> bool:
        return self._outside_window


class MessageColumn(QWidget):
    """Finished messages stacked top to bottom, placed by hand at a fixed total height.

    Appending measures only the new message. A width change, or a message whose size hint
    changed (Qt posts LayoutRequest to a parent without a layout), re-places them all.
    """

    def __init__(self, spacing: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._spacing = spacing
        self._widgets: list[QWidget] = []
        self._bottom = 0
        self.setFixedHeight(0)

    def append(self, widget: QWidget) -> None:
        widget.setParent(self)
        self._widgets.append(widget)
        self._place(widget)
        widget.show()
        self.setFixedHeight(self._bottom)

    def remove_all(self) -> None:
        for widget in self._widgets:
            widget.deleteLater()
        self._widgets.clear()
        self._bottom = 0
        self.setFixedHeight(0)

    def _place(self, widget: QWidget) -> None:
        top = self._bottom + (self._spacing if self._bottom else 0)
        height = widget.heightForWidth(self.width()) if widget.hasHeightForWidth() else widget.sizeHint().height()
        widget.setGeometry(0, top, self.width(), height)
        self._bottom = top + widget.height()

    def relayout(self) -> None:
        self._bottom = 0
        for widget in self._widgets:
            self._place(widget)
        self.setFixedHeight(self._bottom)

    def resizeEvent(self, event: QResizeEvent) -> None:
        if event.size().width() != event.oldSize().width():
            self.relayout()
        super().resizeEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.relayout()
        return super().event(event)


class ChatView(QScrollArea):
    """Shows a conversation and streams the reply being generated."""

    replyRendered = Signal()  # a finished reply was rendered (tests and the bench wait for it)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        content = QWidget(self)
        self._outer = QVBoxLayout(content)
        self._outer.setContentsMargins(12, 12, 12, 12)
        self._outer.setSpacing(8)
        self._history = MessageColumn(spacing=8, parent=content)
        self._outer.addWidget(self._history)
        self._outer.addStretch(1)
        self.setWidget(content)
        self._empty_state: QWidget | None = None  # shown while the chat holds no message (set_empty_state)

        self._messages: list[MessageWidget] = []
        self._live: MessageWidget | None = None
        self.last_rendered: MessageWidget | None = None  # the reply that finished on show, until the view changes
        self._pending: list[tuple[ReplyPart, str]] = []  # streamed text not shown yet, with its part
        self._flushed_at = 0.0  # time.perf_counter() of the last flush that showed text
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)  # started for text that came too soon after a flush
        self._flush_timer.timeout.connect(self.flush)
        self._follow_bottom = True
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._remember_position)
        bar.rangeChanged.connect(self._keep_following)

    # ---- history -------------------------------------------------------------------

    def add_message(self, role: str, text: str, key: str = "", footer: str = "") -> MessageWidget:
        widget = MessageWidget(role, key, self._history)
        widget.linkClicked.connect(self.open_link)
        if role == "assistant":
            widget.set_markdown(text)
        else:
            widget.set_plain_text(text)
        widget.set_footer(footer)
        self._history.append(widget)
        self._messages.append(widget)
        self._show_empty_state()
        return widget

    def clear(self) -> None:
        self._flush_timer.stop()
        self._pending.clear()
        if self._live is not None:
            self._live.deleteLater()
            self._live = None
        self._history.remove_all()
        self._messages.clear()
        self.last_rendered = None
        self._follow_bottom = True
        self._show_empty_state()

    def messages(self) -> list[MessageWidget]:
        return list(self._messages)

    def set_empty_state(self, widget: QWidget) -> None:
        """What an empty chat shows (a welcome, the load's progress); it goes with the first message."""
        widget.setParent(self.widget())
        self._outer.insertWidget(self._outer.count() - 1, widget)  # after the history, before the stretch
        self._empty_state = widget
        self._show_empty_state()

    def _show_empty_state(self) -> None:
        if self._empty_state is not None:
            self._empty_state.setVisible(not self._messages and self._live is None)

    def mark_outside_window(self, keys: set[str]) -> None:
        for widget in self._messages:
            widget.set_outside_window(widget.key in keys)

    # ---- streaming -----------------------------------------------------------------

    @property
    def is_streaming(self) -> bool:
        return self._live is not None

    @property
    def live_message(self) -> MessageWidget | None:
        """The reply streaming now, if any."""
        return self._live

    def begin_reply(self, key: str = "") -> MessageWidget:
        self.finish_streaming_widget_if_any()
        self._live = MessageWidget("assistant", key, self.widget())
        self._live.linkClicked.connect(self.open_link)
        self._live.begin_streaming()
        self._outer.insertWidget(1, self._live)
        self._show_empty_state()
        self._flushed_at = 0.0
        return self._live

    def append_tokens(self, text: str) -> None:
        """Show streamed answer text now, or with what follows once FLUSH_INTERVAL_MS have passed since
        the last flush: never re-rendered per token."""
        self._append_part(ReplyPart.ANSWER, text)

    def append_reasoning(self, text: str) -> None:
        """Show streamed reasoning as `append_tokens` shows the answer, in its block above it."""
        self._append_part(ReplyPart.REASONING, text)

    def _append_part(self, part: ReplyPart, text: str) -> None:
        if self._live is None:
            return
        self._pending.append((part, text))
        if self._flush_timer.isActive():
            return
        wait_ms = FLUSH_INTERVAL_MS - (time.perf_counter() - self._flushed_at) * 1000
        if wait_ms <= 0:
            self.flush()
        else:
            self._flush_timer.start(max(1, round(wait_ms)))

    def flush(self) -> None:
        self._flush_timer.stop()
        if self._live is None or not self._pending:
            return
        pending = self._pending[:]
        self._pending.clear()
        self._flushed_at = time.perf_counter()
        for part, text in joined_runs(pending):
            if part is ReplyPart.REASONING:
                self._live.append_reasoning(text)
            else:
                self._live.append_text(text)

    def live_text(self) -> str:
        """What the streaming reply's answer holds so far, shown or still queued."""
        shown = self._live.streamed_text() if self._live is not None else ""
        return shown + "".join(text for part, text in self._pending if part is ReplyPart.ANSWER)

    def live_reasoning(self) -> str:
        """What the streaming reply's reasoning holds so far, shown or still queued."""
        block = self._live.reasoning if self._live is not None else None
        shown = block.streamed_text() if block is not None else ""
        return shown + "".join(text for part, text in self._pending if part is ReplyPart.REASONING)

    def finish_reply(self, text: str, footer: str = "", reasoning: str | None = None) -> MessageWidget | None:
        """Render the finished reply as Markdown and move it into the history; `reasoning`: its whole
        reasoning (None: what streamed of it)."""
        self._flush_timer.stop()
        live = self._live
        if live is None:
            return None
        if reasoning is None:
            reasoning = self.live_reasoning()
        self._pending.clear()
        self._live = None
        self._outer.removeWidget(live)
        live.set_markdown(text)
        live.show_reasoning(reasoning)
        live.set_footer(footer)
        self._history.append(live)
        self._messages.append(live)
        self.last_rendered = live
        self.replyRendered.emit()
        return live

    def finish_streaming_widget_if_any(self) -> None:
        if self._live is not None:
            self.flush()
            self.finish_reply(self.live_text())

    # ---- links ---------------------------------------------------------------------

    def open_link(self, url: QUrl) -> None:
        """A clicked link opens in the web browser only if it is a web address and the reader agrees."""
        address = web_address(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))
        if address is not None and self.confirm_open_link(display_address(address)):
            QDesktopServices.openUrl(address)

    def confirm_open_link(self, address: str) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Open link"),
            fill(self.tr("Open this address in your web browser?\n\n{address}"), address=address),
            QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)  # the address is shown as it is, never read as markup
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Open

    # ---- follow the bottom only when the reader is there ----------------------------

    def scroll_to_end(self) -> None:
        """Bring the newest message into view and follow the reply from there (the user just sent)."""
        self._follow_bottom = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _remember_position(self, value: int) -> None:
        self._follow_bottom = value >= self.verticalScrollBar().maximum() - BOTTOM_TOLERANCE_PX

    def _keep_following(self, _minimum: int, maximum: int) -> None:
        if self._follow_bottom:
            self.verticalScrollBar().setValue(maximum)
