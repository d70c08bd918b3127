"""The prompt inspector with tools: the definitions' tokens in the meter's colour for them, the summary says
what the definitions and the results take, a token says it is part of the definitions."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from app.core.chat.prompt_inspector import MessageEntry, PromptInspection, PromptToken
from app.ui.glass.prompt_inspector_panel import PromptInspectorPanel, prompt_html, tokens_html
from app.ui.widgets.theme import colours


def inspection() -> PromptInspection:
    """A system message holding the tools' definitions ("# Tools" "{…}"), the user's question, a tool's result."""
    pieces = [
        ("<s>", True, None, False),
        ("# Tools", False, None, True),
        ("{clock}", False, None, True),
        ("Time?", False, 0, False),
        ("14:05", False, 1, False),
        ("Z", False, 1, False),
    ]
    tokens, position = [], 0
    for index, (text, special, message, tool) in enumerate(pieces):
        end = position + len(text)
        tokens.append(PromptToken(index, text, position, end, special, message, text.encode(), tool=tool))
        position = end
    entries = [MessageEntry("user", "Time?", 1, True), MessageEntry("tool", "14:05Z", 2, True)]
    return PromptInspection("".join(p[0] for p in pieces), tokens, entries, n_ctx=64, reserve=8)


def test_the_tools_definitions_show_in_their_colour_in_the_text_and_the_tokens() -> None:
    tools = colours().meter_tools
    assert f'<span style="color:{tools}"># Tools</span>' in prompt_html(inspection())
    chips = tokens_html(inspection().tokens).split("</a>")
    assert f"color:{tools};" in chips[2] and "{clock}" in chips[2]
    assert f"color:{tools};" not in chips[3]  # the user's words


def test_the_summary_says_what_the_definitions_and_the_results_take(qtbot: QtBot) -> None:
    panel = PromptInspectorPanel()
    qtbot.addWidget(panel)
    panel.show_inspection(inspection())
    assert "Tools: 2 tokens of definitions, 2 of results" in panel.summary.text()
    assert panel.messages_view.topLevelItem(1).text(0) == "tool"
    panel._show_token(QUrl("token:1"))
    assert "(tool definitions)" in panel.token_info.text()
    panel._show_token(QUrl("token:3"))
    assert "(tool definitions)" not in panel.token_info.text()


def test_a_prompt_without_tools_says_nothing_about_them(qtbot: QtBot) -> None:
    panel = PromptInspectorPanel()
    qtbot.addWidget(panel)
    plain = inspection()
    plain.tokens = [t for t in plain.tokens if not t.tool]
    plain.messages = plain.messages[:1]
    panel.show_inspection(plain)
    assert "Tools" not in panel.summary.text()
