"""The token view marks a thinking model's reasoning tokens apart from its answer's."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.core.types.token_trace import Alternative, TokenStep, TokenTrace
from app.ui.glass.token_view import TokenReplyView, answer_start, attach_token_view, token_reply_html
from app.ui.widgets.theme import colours


def trace(*texts: str) -> TokenTrace:
    return TokenTrace([TokenStep(i, text, 0.9, (Alternative(i, text, 0.9),)) for i, text in enumerate(texts)])


def test_the_answer_starts_after_the_reasoning_tokens_the_stats_count() -> None:
    thought = trace("Hmm", ",", " ok", "Hi", "!")
    assert answer_start(thought, 3) == 3
    assert answer_start(thought, 0) == 0, "a reply that did not think is all answer"
    assert answer_start(thought, 99) == 5, "never past the trace (a stop inside the reasoning)"


def test_reasoning_tokens_are_muted_and_in_italics_and_the_answer_is_not() -> None:
    html = token_reply_html(trace("Hmm", "Hi"), "#000000", reasoning_steps=1)
    reasoning, answer = html.split("</a>")[:2]
    assert f"color: {colours().muted}; font-style: italic" in reasoning and "Hmm" in reasoning
    assert "italic" not in answer and "color: #000000" in answer and "Hi" in answer


def test_the_legend_says_how_many_tokens_were_reasoning(qtbot: QtBot) -> None:
    view = TokenReplyView(trace("Hmm", ",", "Hi"), reasoning_steps=2)
    qtbot.addWidget(view)
    assert "The first 2 tokens are the reasoning" in view.legend.text()
    plain = TokenReplyView(trace("Hi"))
    qtbot.addWidget(plain)
    assert "reasoning" not in plain.legend.text()


def test_a_message_gets_a_token_view_that_knows_its_reasoning(qtbot: QtBot) -> None:

    message = QWidget()
    qtbot.addWidget(message)
    body = QLabel("Hi", message)
    QVBoxLayout(message).addWidget(body)
    view = attach_token_view(message, body, trace("Hmm", "Hi"), reasoning_tokens=1)
    assert view.reasoning_steps == 1
