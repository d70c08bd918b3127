"""A huge message (user or model) does not hold the window up: it shows its beginning, the rest on demand.

Laying out 2 MB of text took the window 8-9 s on Send and about 3 s per resize; a message
above the threshold now lays out only its preview, and its whole text is one click away,
and copied whole.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.chat.long_message import (
    COLLAPSE_ABOVE_CHARS,
    COLLAPSE_RUN_CHARS,
    PREVIEW_CHARS,
    LongMessageBar,
    preview,
)
from app.ui.chat.view import ChatView, MessageWidget

LINE = "A line of a very long log that someone pasted into the chat, to ask about it.\n"
TWO_MB = LINE * (2_000_000 // len(LINE))


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def shown_text(message: MessageWidget) -> str:
    return message.body.document().toPlainText()


@pytest.mark.parametrize("role", ["user", "assistant"])
def test_a_two_megabyte_message_shows_its_beginning_and_says_so(view: ChatView, role: str) -> None:
    message = view.add_message(role, TWO_MB)
    settle()
    assert message.text == TWO_MB  # what the message menu's "Copy text" and the history use
    assert len(shown_text(message)) <= PREVIEW_CHARS
    assert shown_text(message).startswith(LINE.strip())
    assert message.long_bar is not None and message.long_bar.isVisible()
    assert f"{len(TWO_MB):,}" in message.long_bar.note.text()


def test_a_long_finished_reply_is_collapsed_too(view: ChatView) -> None:
    reply = "**Here** is the output:\n\n" + TWO_MB
    view.begin_reply()
    view.append_tokens(reply)
    view.flush()
    message = view.finish_reply(reply)
    settle()
    assert message is not None and message.text == reply
    assert shown_text(message).startswith("Here is the output:")
    assert len(shown_text(message)) <= PREVIEW_CHARS
    assert message.long_bar is not None


def test_copy_all_copies_the_whole_message(view: ChatView) -> None:
    message = view.add_message("user", TWO_MB)
    assert message.long_bar is not None
    message.long_bar.copy_button.click()
    assert QGuiApplication.clipboard().text() == TWO_MB


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform stacks no windows
def test_show_all_opens_the_whole_text_in_a_window_of_its_own(view: ChatView, qtbot: QtBot) -> None:
    message = view.add_message("assistant", TWO_MB)
    assert message.long_bar is not None
    message.long_bar.show_all_button.click()
    window = message.long_bar.show_all()  # a second click raises the same window
    try:
        assert window.isVisible()
        assert window.editor.toPlainText() == TWO_MB
        assert window.editor.isReadOnly()
    finally:
        window.close()
    qtbot.waitUntil(lambda: message.long_bar is not None and message.long_bar._window is None)


def test_resizing_the_window_lays_out_the_preview_not_the_whole_text(view: ChatView) -> None:
    message = view.add_message("user", TWO_MB)
    settle()
    for width in (500, 900, 640):
        view.resize(width, 500)
        settle()
        assert len(shown_text(message)) <= PREVIEW_CHARS
    assert message.height() == message.heightForWidth(message.width())


def test_a_message_with_a_long_unbroken_run_is_collapsed(view: ChatView) -> None:
    blob = "data:" + "A" * (COLLAPSE_RUN_CHARS + 1)
    message = view.add_message("user", f"What is this?\n{blob}")
    assert message.long_bar is not None
    assert len(shown_text(message)) <= PREVIEW_CHARS


def test_an_ordinary_message_is_shown_whole(view: ChatView) -> None:
    text = "word " * (COLLAPSE_ABOVE_CHARS // 5)
    message = view.add_message("assistant", text)
    assert message.long_bar is None
    assert shown_text(message) == text.strip()


def test_rendering_a_message_again_keeps_a_single_bar(view: ChatView) -> None:
    message = view.add_message("assistant", TWO_MB)
    message.set_markdown(TWO_MB + "more")
    bars = [bar for bar in message.findChildren(LongMessageBar) if not bar.isHidden()]
    assert message.long_bar is not None and bars == [message.long_bar]
    assert f"{len(TWO_MB) + 4:,}" in message.long_bar.note.text()  # it counts the text it now has
    message.set_markdown("short now")
    assert message.long_bar is None
    assert shown_text(message) == "short now"


def test_the_preview_ends_at_a_line_or_a_word_when_one_is_near() -> None:
    lines = "line\n" * PREVIEW_CHARS
    assert preview(lines).endswith("line") and len(preview(lines)) < PREVIEW_CHARS
    words = "word " * PREVIEW_CHARS
    assert preview(words).endswith("word") and "\n" not in preview(words)
    run = "x" * (PREVIEW_CHARS * 2)
    assert preview(run) == "x" * PREVIEW_CHARS
    assert preview("short") == "short"
