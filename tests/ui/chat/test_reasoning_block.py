"""A thinking model's reasoning in its own block above the answer: it streams open, folds to one line
when the answer starts, opens again on a click or a key, copies itself, and is as inert as a reply."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QTextCharFormat
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.chat.reasoning_block import ReasoningBlock
from app.ui.chat.view import ChatView, MessageWidget
from app.ui.widgets.theme import DARK, LIGHT, Theme, apply_theme


def stream(view: ChatView, reasoning: str, answer: str = "") -> MessageWidget:
    live = view.begin_reply()
    view.append_reasoning(reasoning)
    view.flush()
    if answer:
        view.append_tokens(answer)
        view.flush()
    return live


def block_of(message: MessageWidget) -> ReasoningBlock:
    assert message.reasoning is not None, "the reply has a reasoning block"
    return message.reasoning


def test_reasoning_streams_open_in_its_own_block_above_the_answer(view: ChatView) -> None:
    live = stream(view, "Let me think about **bold** ideas.")
    block = block_of(live)
    assert block.expanded and block.streaming
    assert block.summary() == "Thinking…"
    assert block.streamed_text() == "Let me think about **bold** ideas."
    assert live.streamed_text() == "", "the answer has not started"
    assert live.body.isHidden(), "no empty answer under the reasoning yet"
    column = live.layout()
    assert column.indexOf(block) < column.indexOf(live.body)


def test_the_block_folds_when_the_answer_starts_and_shows_the_cost_when_the_reply_ends(view: ChatView) -> None:
    live = stream(view, "Hmm.", "Hello!")
    block = block_of(live)
    assert not block.expanded and not block.streaming
    assert block.body.isHidden() and not live.body.isHidden()
    assert block.summary().startswith("Thought for ")
    finished = view.finish_reply("Hello!", reasoning="Hmm.")
    assert finished is live
    block.set_cost(12.4, 840)
    assert block.summary() == "Thought for 12.4 s · 840 tokens"
    assert block.toggle.text() == block.summary()
    assert not block.expanded, "a finished reply with an answer keeps its reasoning folded"
    assert live.text == "Hello!" and block.text() == "Hmm."


def test_the_cost_line_says_what_is_known(qtbot: QtBot) -> None:
    block = ReasoningBlock()
    qtbot.addWidget(block)
    block.show_text("Hmm.")
    assert block.summary() == "Reasoning"
    block.set_cost(3.0, 0)
    assert block.summary() == "Thought for 3.0 s"
    block.set_cost(0.0, 1)
    assert block.summary() == "Thought · 1 token"


def test_a_click_or_the_keyboard_opens_and_folds_the_block(view: ChatView, qtbot: QtBot) -> None:
    live = stream(view, "Step one.", "Done.")
    block = block_of(live)
    qtbot.mouseClick(block.toggle, Qt.MouseButton.LeftButton)
    assert block.expanded and not block.body.isHidden()
    block.toggle.setFocus()
    qtbot.keyClick(block.toggle, Qt.Key.Key_Space)
    assert not block.expanded and block.body.isHidden()
    assert block.toggle.focusPolicy() & Qt.FocusPolicy.TabFocus, "the keyboard reaches it"


def test_the_reasoning_copies_itself_and_the_answer_stays_the_replys_text(view: ChatView, qtbot: QtBot) -> None:
    live = stream(view, "Consider *x*.", "It is 4.")
    view.finish_reply("It is 4.", reasoning="Consider *x*.")
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(block_of(live).copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "Consider *x*."
    assert live.text == "It is 4."


def test_reasoning_is_rendered_as_markdown_and_is_inert(view: ChatView, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", opened.append)
    asked: list[str] = []
    monkeypatch.setattr(ChatView, "confirm_open_link", lambda self, address: asked.append(address) or False)
    reasoning = "**Plan**: ![x](file:///etc/passwd) see [docs](https://example.org) and [here](file:///etc/hosts)"
    live = stream(view, reasoning, "Ok.")
    view.finish_reply("Ok.", reasoning=reasoning)
    document = block_of(live).body.document()
    html = document.toHtml()
    assert "file:" not in html, "no image, no link but a web one"
    assert document.toPlainText().startswith("Plan")
    bold = document.find("Plan").charFormat()
    assert bold.fontWeight() > QTextCharFormat().fontWeight()
    block_of(live).body.anchorClicked.emit(QUrl("https://example.org"))
    assert asked == ["https://example.org"], "a link asks first, as in a reply"
    assert opened == []


def test_a_reply_stopped_inside_its_reasoning_shows_the_block_open(view: ChatView) -> None:
    live = stream(view, "I was thinking abo")
    finished = view.finish_reply("")
    assert finished is live
    block = block_of(live)
    assert block.expanded and not block.streaming
    assert block.text() == "I was thinking abo", "what streamed is kept"
    assert live.body.isHidden(), "no empty answer"


def test_a_reopened_reply_shows_its_saved_reasoning_folded(view: ChatView) -> None:
    message = view.add_message("assistant", "The answer.")
    message.show_reasoning("Saved thoughts.", seconds=2.5, tokens=7)
    block = block_of(message)
    assert not block.expanded and block.body.isHidden()
    assert block.summary() == "Thought for 2.5 s · 7 tokens"
    assert block.text() == "Saved thoughts."


def test_a_reply_without_reasoning_has_no_block(view: ChatView) -> None:
    message = view.add_message("assistant", "Plain answer.")
    message.show_reasoning("")
    assert message.reasoning is None


@pytest.fixture
def themes() -> Iterator[None]:
    yield
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, Theme.LIGHT)


@pytest.mark.usefixtures("themes")
def test_the_reasoning_is_muted_in_both_themes(view: ChatView) -> None:
    live = stream(view, "Quiet thoughts.", "Loud answer.")
    block = block_of(live)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    for theme, colours in ((Theme.LIGHT, LIGHT), (Theme.DARK, DARK)):
        apply_theme(app, theme)
        assert colours.muted in block.body.styleSheet()
        assert colours.muted != colours.text


def test_reasoning_that_comes_after_the_answer_began_is_shown_not_lost(view: ChatView) -> None:
    live = stream(view, "First.", "Answer.")
    view.append_reasoning(" Second thought.")
    view.flush()
    assert block_of(live).text() == "First. Second thought."
    assert live.streamed_text() == "Answer."
