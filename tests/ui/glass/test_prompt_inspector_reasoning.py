"""Where a chat template keeps a past reply's reasoning in the prompt, the inspector marks its tokens."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from app.core.chat.prompt_inspector import MessageEntry, PromptInspection, PromptToken
from app.ui.glass.prompt_inspector_panel import PromptInspectorPanel, prompt_html, tokens_html
from app.ui.widgets.theme import colours


def inspection() -> PromptInspection:
    """An assistant message whose reasoning ("Hmm") the template kept before its answer ("Hi")."""
    pieces = [("<a>", True, None, False), ("Hmm", False, 0, True), ("Hi", False, 0, False)]
    tokens, position = [], 0
    for index, (text, special, message, reasoning) in enumerate(pieces):
        tokens.append(
            PromptToken(index, text, position, position + len(text), special, message, text.encode(), False, reasoning)
        )
        position += len(text)
    entry = MessageEntry("assistant", "Hi", 2, True, reasoning_tokens=1)
    return PromptInspection("".join(p[0] for p in pieces), tokens, [entry], n_ctx=64, reserve=8)


def test_reasoning_tokens_are_muted_and_in_italics_in_the_text_and_the_tokens() -> None:
    muted = colours().muted
    assert f'<i style="color:{muted}">Hmm</i>Hi' in prompt_html(inspection())
    chips = tokens_html(inspection().tokens).split("</a>")
    assert f"color:{muted}; font-style:italic;" in chips[1] and "Hmm" in chips[1]
    assert "italic" not in chips[2]


def test_the_context_window_counts_a_messages_reasoning_tokens_and_a_token_says_it_is_reasoning(
    qtbot: QtBot,
) -> None:
    panel = PromptInspectorPanel()
    qtbot.addWidget(panel)
    panel.show_inspection(inspection())
    assert panel.messages_view.topLevelItem(0).text(1) == "2 (1 reasoning)"
    panel._show_token(QUrl("token:1"))
    assert "(reasoning)" in panel.token_info.text()
    panel._show_token(QUrl("token:2"))
    assert "(reasoning)" not in panel.token_info.text()


def test_a_message_without_kept_reasoning_shows_its_count_alone(qtbot: QtBot) -> None:
    panel = PromptInspectorPanel()
    qtbot.addWidget(panel)
    plain = inspection()
    plain.messages = [MessageEntry("assistant", "Hi", 2, True)]
    panel.show_inspection(plain)
    assert panel.messages_view.topLevelItem(0).text(1) == "2"
