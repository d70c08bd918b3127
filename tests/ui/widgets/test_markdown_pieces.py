"""Markdown rendered in pieces reads as the whole text rendered at once, and grows piece by piece."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from app.ui.widgets.code_blocks import copied_code
from app.ui.widgets.inert_text import InertDocument
from app.ui.widgets.markdown import render_markdown
from app.ui.widgets.markdown_pieces import CODE_PIECE_CHARS, MarkdownPieces, settled_part, split_pieces

REPLIES = {
    "headings, lists and code": (
        "# Title\n\nSome *text*\nnext line\n\n- a\n- b\n  - c\n\nAfter the list\n\n"
        "```python\nprint(1)\n\nx = 2\n```\n\nDone **bold**."
    ),
    "table, rule and quote": "Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter\n\n---\n\nText\n\n> quote\n\nEnd",
    "loose numbered list": "1. one\n\n2. two\n\nA paragraph\n\n3. three\n\nEnd",
    "links and images": (
        "A [link](https://example.org) and ![img](/dev/zero)\n\nMore [bad](javascript:x)\n\n~~~\nt\n~~~\n\nok"
    ),
    "indented code and rules": (
        "    indented code\n\n    more\n\nThen\n\n## H2\n\nBody\nline two\n\n***\n\nMid\n\n___\n\nLast"
    ),
}


@pytest.fixture
def document(qtbot: QtBot) -> InertDocument:
    return InertDocument()


def sources(text: str) -> list[str]:
    return [piece.source for piece in split_pieces(text)]


def rendered_at_once(text: str) -> InertDocument:
    whole = InertDocument()
    render_markdown(whole, text)
    return whole


@pytest.mark.parametrize("text", list(REPLIES.values()), ids=list(REPLIES))
def test_a_reply_rendered_in_pieces_is_the_reply_rendered_at_once(document: InertDocument, text: str) -> None:
    assert len(sources(text)) > 2
    MarkdownPieces(document).show(text)
    assert document.toHtml() == rendered_at_once(text).toHtml()


@pytest.mark.parametrize("text", list(REPLIES.values()), ids=list(REPLIES))
def test_at_every_moment_of_a_stream_the_document_is_what_that_text_renders_to(
    document: InertDocument, text: str
) -> None:
    pieces = MarkdownPieces(document)
    for end in range(1, len(text) + 1):
        pieces.show(text[:end], streaming=True)
        fresh = InertDocument()
        MarkdownPieces(fresh).show(text[:end], streaming=True)
        assert document.toHtml() == fresh.toHtml(), repr(text[:end])
    pieces.show(text)
    assert document.toHtml() == rendered_at_once(text).toHtml()


def test_a_reply_is_cut_only_where_a_new_top_level_block_begins() -> None:
    text = "Intro\n\n- a\n\n- b\n\n    indented\n\nText\n\n```\ncode\n\nNot a piece\n```\n\n> q\n\n1. x\n\nEnd"
    pieces = sources(text)
    assert "".join(pieces) == text
    assert pieces == [
        "Intro\n\n- a\n\n- b\n\n    indented\n\n",  # a list item or an indented line may continue what is above
        "Text\n\n",
        "```\ncode\n\nNot a piece\n```\n\n> q\n\n1. x\n\n",  # nothing inside a code fence starts a piece
        "End",
    ]


def test_more_blank_lines_do_not_cut_what_an_indented_line_continues() -> None:
    assert sources("- item\n\n\n    still the item\n\n\nNext") == ["- item\n\n\n    still the item\n\n\n", "Next"]


def test_a_fence_closes_only_with_its_own_kind_and_length() -> None:
    text = "````\n```\n\nstill code\n~~~\n\nstill code\n````\n\nAfter"
    assert sources(text) == ["````\n```\n\nstill code\n~~~\n\nstill code\n````\n\n", "After"]


def test_a_backtick_line_with_a_backtick_in_its_info_is_inline_code_not_a_fence() -> None:
    assert sources("```a`b\n\nNext") == ["```a`b\n\n", "Next"]


@pytest.mark.parametrize("last_line", ["``", "```py", "~~", "-", "- ", "==", "***", "12.", "3"])
def test_an_unfinished_last_line_that_may_still_change_its_meaning_waits(last_line: str) -> None:
    assert settled_part("Some text\n" + last_line) == "Some text\n"


@pytest.mark.parametrize("last_line", ["Some wor", "`code` and", "# Head", "12 apples", ""])
def test_any_other_unfinished_last_line_shows_at_once(last_line: str) -> None:
    assert settled_part("Some text\n" + last_line) == "Some text\n" + last_line


def test_a_growing_text_renders_again_only_from_the_piece_that_changed(document: InertDocument) -> None:
    pieces = MarkdownPieces(document)
    pieces.show("First paragraph.\n\nSecond", streaming=True)
    assert pieces.rendered_pieces == 2
    pieces.show("First paragraph.\n\nSecond paragraph.\n\nThi", streaming=True)
    assert pieces.rendered_pieces == 4  # the second again (it grew) and the third
    pieces.show("First paragraph.\n\nSecond paragraph.\n\nThi", streaming=True)
    assert pieces.rendered_pieces == 4  # nothing new, nothing rendered


def test_showing_a_different_text_replaces_all_of_it(document: InertDocument) -> None:
    pieces = MarkdownPieces(document)
    pieces.show("Old text.\n\n```\nold code\n```")
    pieces.show("New text.")
    assert document.toPlainText() == "New text."


LONG_CODE = "".join(f"value_{i} = {i}\n" + ("\n" if i % 7 == 0 else "") for i in range(1_200))
LONG_CODE_REPLY = f"Intro\n\n```python\n{LONG_CODE}```\n\nAfter **it**\n\n```sh\necho hi\n```\n\nEnd"


def test_a_long_code_block_goes_on_in_pieces_of_bounded_size() -> None:
    pieces = split_pieces(LONG_CODE_REPLY)
    assert "".join(piece.source for piece in pieces) == LONG_CODE_REPLY
    going_on = [piece for piece in pieces if piece.fence]
    assert len(going_on) >= 3 and {piece.fence for piece in going_on} == {"```python"}
    longest_line = max(map(len, LONG_CODE.split("\n")))
    assert all(len(piece.source) <= CODE_PIECE_CHARS + 3 * (longest_line + 1) for piece in pieces)  # a line or two on
    assert not any(piece.source.startswith("\n") for piece in going_on)  # Qt would drop a leading blank line


def test_a_long_code_block_in_pieces_is_the_block_rendered_at_once_and_copies_whole(document: InertDocument) -> None:
    MarkdownPieces(document).show(LONG_CODE_REPLY)
    assert document.toHtml() == rendered_at_once(LONG_CODE_REPLY).toHtml()
    assert document.toPlainText().count("Copy") == 2  # one header for the long block, one for the short one
    assert copied_code(document, QUrl("glassbox-copy:0")) == LONG_CODE.rstrip("\n")
    assert copied_code(document, QUrl("glassbox-copy:1")) == "echo hi"
