"""Finished replies keep their line breaks: a poem stays a poem, code and tables stay as Markdown reads them."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from app.ui.widgets.markdown import keep_line_breaks, render_markdown

LINE_SEPARATOR = "\u2028"  # how Qt's document holds a line break inside a paragraph


@pytest.fixture
def document(qtbot: QtBot) -> QTextDocument:
    return QTextDocument()


def test_single_newlines_stay_line_breaks(document: QTextDocument) -> None:
    render_markdown(document, "Roses are red,\nviolets are blue.\n\nA new stanza.")
    lines = document.toPlainText().replace(LINE_SEPARATOR, "\n").split("\n")
    assert lines == ["Roses are red,", "violets are blue.", "A new stanza."]  # not "Roses are red, violets are…"


def test_code_fences_tables_headings_and_lists_are_left_as_markdown_reads_them() -> None:
    text = "```python\nx = 1\ny = 2\n```\n| a | b |\n|---|---|\n| 1 | 2 |\nTitle\n=====\n- one\n- two"
    kept = keep_line_breaks(text).split("\n")
    assert kept[1:3] == ["x = 1", "y = 2"]  # code lines untouched
    assert kept[4:7] == ["| a | b |", "|---|---|", "| 1 | 2 |"]
    assert kept[7] == "Title"  # a setext heading keeps its title line
    assert kept[9] == "- one  "  # a break at the end of a list item is ignored by CommonMark


def test_a_rendered_list_and_code_block_still_render(document: QTextDocument) -> None:
    render_markdown(document, "Steps:\n- first\n- second\n\n```\nline one\nline two\n```")
    text = document.toPlainText()
    assert "first" in text and "second" in text
    assert "line one\nline two" in text and "```" not in text
