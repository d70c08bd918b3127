"""The chat view streams into one message and scrolls like a reader expects."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.chat.view import ChatView, MessageWidget
from app.ui.widgets.theme import colours

PARAGRAPH = "A sentence that wraps over several lines in a narrow window. " * 6


def _fill(view: ChatView, count: int) -> None:
    for index in range(count):
        view.add_message("user" if index % 2 == 0 else "assistant", PARAGRAPH, key=str(index))
    bar = view.verticalScrollBar()
    for _ in range(100):  # the scroll range follows the content on a posted layout request
        QApplication.processEvents()
        if bar.maximum() > 0:
            return


def test_streamed_text_shows_at_once_then_at_most_once_per_flush_interval(view: ChatView) -> None:
    live = view.begin_reply()
    view.append_tokens("Hel")
    assert live.streamed_text() == "Hel"  # the first text of a reply is not held back
    view.append_tokens("lo")
    assert live.streamed_text() == "Hel"  # text right after a flush waits: nothing re-rendered per token
    view.flush()
    assert live.streamed_text() == "Hello"


def test_the_flush_timer_shows_text_that_came_too_soon_without_help(view: ChatView, qtbot: QtBot) -> None:
    live = view.begin_reply()
    view.append_tokens("stream")
    view.append_tokens("ing")
    qtbot.waitUntil(lambda: live.streamed_text() == "streaming", timeout=1000)


def test_streaming_re_renders_only_the_streaming_message(view: ChatView, monkeypatch: pytest.MonkeyPatch) -> None:
    _fill(view, 12)
    rendered: list[MessageWidget] = []
    for method in ("append_text", "set_plain_text", "set_markdown"):
        original = getattr(MessageWidget, method)
        monkeypatch.setattr(
            MessageWidget, method, lambda self, text, original=original: (rendered.append(self), original(self, text))
        )
    live = view.begin_reply()
    for word in ["one ", "two ", "three "]:
        view.append_tokens(word)
        view.flush()
        QApplication.processEvents()
    assert set(rendered) == {live}


def test_a_finished_reply_is_rendered_as_markdown_with_code_blocks(view: ChatView) -> None:
    view.begin_reply()
    view.append_tokens("Here:\n```python\nprint('hi')\n```\n**done**")
    message = view.finish_reply("Here:\n```python\nprint('hi')\n```\n**done**", footer="5 tokens")
    assert message is not None and not view.is_streaming
    html = message.body.document().toHtml()
    assert "python  Copy\nprint('hi')" in message.body.document().toPlainText()  # coloured, so split in the HTML
    assert colours().code_background in html  # the code block's background, from the theme
    assert "font-weight" in html  # **done** became bold
    assert message.footer.text() == "5 tokens"
    assert view.messages()[-1] is message


def test_the_view_follows_new_text_when_the_reader_is_at_the_bottom(view: ChatView) -> None:
    _fill(view, 10)
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum())
    view.begin_reply()
    for _ in range(20):
        view.append_tokens(PARAGRAPH)
        view.flush()
        QApplication.processEvents()
    assert bar.value() == bar.maximum() > 0


def test_the_view_stays_put_when_the_reader_scrolled_up(view: ChatView) -> None:
    _fill(view, 10)
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum() // 3)
    position = bar.value()
    view.begin_reply()
    for _ in range(20):
        view.append_tokens(PARAGRAPH)
        view.flush()
        QApplication.processEvents()
    assert bar.value() == position < bar.maximum()


def test_finished_messages_are_stacked_without_overlap(view: ChatView) -> None:
    _fill(view, 6)
    widgets = view.messages()
    for upper, lower in itertools.pairwise(widgets):
        assert upper.geometry().bottom() < lower.geometry().top()
        assert upper.height() == upper.heightForWidth(upper.width())  # as tall as its text, no more


def test_messages_outside_the_context_window_are_marked(view: ChatView) -> None:
    _fill(view, 4)
    view.mark_outside_window({"0", "1"})
    assert [m.outside_window for m in view.messages()] == [True, True, False, False]
    assert "no longer sees" in view.messages()[0].toolTip()


def test_clicking_copy_on_a_code_block_puts_its_code_on_the_clipboard_and_opens_nothing(
    view: ChatView, qtbot: QtBot
) -> None:
    message = view.add_message("assistant", "Run:\n```sh\nls -la\n```")
    with qtbot.assertNotEmitted(message.linkClicked):
        message.body.anchorClicked.emit(QUrl("glassbox-copy:0"))
    assert QGuiApplication.clipboard().text() == "ls -la"
