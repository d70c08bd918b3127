"""Finished replies keep their line breaks: a poem stays a poem, code and tables stay as Markdown reads them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from app.ui.widgets.code_blocks import copied_code
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


def test_a_list_item_and_the_lines_under_it_are_one_item_with_its_line_breaks(document: QTextDocument) -> None:
    # As small models write tips: each item's title, then its explanation on the next lines.
    render_markdown(document, "Tips:\n\n1. **Name**\n   Say what it does.\n   Keep it short.\n2. **Test**\nCheck it.")
    items = []
    block = document.begin()
    while block.isValid():
        if block.textList() is not None:
            items.append((block.textList().itemNumber(block) + 1, block.text().split(LINE_SEPARATOR)))
        block = block.next()
    assert items == [(1, ["Name", "Say what it does.", "Keep it short."]), (2, ["Test", "Check it."])]


def test_a_rendered_list_and_code_block_still_render(document: QTextDocument) -> None:
    render_markdown(document, "Steps:\n- first\n- second\n\n```\nline one\nline two\n```")
    text = document.toPlainText()
    assert "first" in text and "second" in text
    assert "line one\nline two" in text and "```" not in text


def test_a_code_block_names_its_language_colours_its_tokens_and_keeps_its_lines(document: QTextDocument) -> None:
    render_markdown(document, "Try:\n```python\ndef greet():  # say hi\n    return 'hi'\n```\nDone.")
    text = document.toPlainText()
    assert "python  Copy" in text and "```" not in text
    assert "def greet():  # say hi\n    return 'hi'" in text
    keyword = document.find("def").charFormat()
    comment = document.find("# say hi").charFormat()
    plain = document.find("Done.").charFormat()
    assert keyword.foreground().color() != plain.foreground().color()
    assert comment.fontItalic() and comment.foreground().color() != keyword.foreground().color()
    assert document.find("return").block().blockFormat().nonBreakableLines()  # long lines scroll, not wrap


def test_the_copy_link_gives_the_code_exactly_as_written(document: QTextDocument) -> None:
    render_markdown(document, "```\nfirst block\n```\n\ntext\n\n```sh\necho   two\n```")
    links: dict[str, list[str]] = {}
    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            if fragment.charFormat().isAnchor():
                links.setdefault(fragment.text(), []).append(fragment.charFormat().anchorHref())
            iterator += 1
        block = block.next()
    assert len(links["Copy"]) == 2
    assert [copied_code(document, QUrl(href)) for href in links["Copy"]] == ["first block", "echo   two"]
    assert "code  Copy" in document.toPlainText()  # a block without a language says "code"
    assert copied_code(document, QUrl("https://example.com")) is None
    assert copied_code(document, QUrl("glassbox-copy:7")) is None
