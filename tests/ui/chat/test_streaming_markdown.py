"""A reply is rendered as Markdown while it streams, so nothing changes when it ends.

The streaming reply and the finished one are the same rendering of the same text: a list
is a list and a code block a code block before the reply ends, a single newline is a line
break throughout, no raw ``` shows at any moment, and the document (and so the height) is
the same just before and just after the reply finishes. Rendering is throttled: a burst of
tokens costs one render, and a long reply renders again only its last piece.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.ui.chat.view import ChatView, MessageWidget
from app.ui.widgets.code_blocks import copied_code

LINE_SEPARATOR = "\u2028"  # how Qt's document holds a line break inside a paragraph
REPLY = (
    "Steps:\n"
    "- first\n"
    "- second\n"
    "\n"
    "```python\n"
    "def greet():\n"
    "    return 'hi'\n"
    "```\n"
    "\n"
    "Roses are red,\n"
    "violets are blue.\n"
    "\n"
    "Done."
)

pytestmark = pytest.mark.timeout(120)


def stream(view: ChatView, text: str, step: int) -> MessageWidget:
    """Begin a reply and stream `text` in tokens of `step` characters, each flushed as the timer would."""
    live = view.begin_reply()
    for start in range(0, len(text), step):
        view.append_tokens(text[start : start + step])
        view.flush()
    return live


def rendered(live: MessageWidget, qtbot: QtBot) -> None:
    """Wait for the render the streamed text asked for."""
    assert live.stream is not None
    with qtbot.waitSignal(live.stream.rendered, timeout=5000):
        pass


def shown_text(message: MessageWidget) -> str:
    return message.body.document().toPlainText()


def lines_shown(message: MessageWidget) -> list[str]:
    return shown_text(message).replace(LINE_SEPARATOR, "\n").split("\n")


def renders_of(live: MessageWidget) -> list[None]:
    assert live.stream is not None
    counted: list[None] = []
    live.stream.rendered.connect(lambda: counted.append(None))
    return counted


def test_a_streaming_reply_shows_its_list_and_code_block_rendered_before_it_ends(view: ChatView, qtbot: QtBot) -> None:
    live = stream(view, REPLY, step=4)
    rendered(live, qtbot)
    assert view.is_streaming
    document = live.body.document()
    assert "```" not in shown_text(live)
    assert document.find("first").block().textList() is not None  # a list item, not a line starting with "-"
    assert document.find("second").block().textList() is not None
    assert "python  Copy" in shown_text(live)  # the code block's language line, as when finished
    assert document.find("return 'hi'").block().blockFormat().nonBreakableLines()


def test_no_raw_code_fence_shows_at_any_moment_of_the_stream(view: ChatView) -> None:
    text = "Run this:\n\n```sh\necho one\necho two\n```\n\nand then:\n~~~\nls\n~~~\n"
    live = view.begin_reply()
    assert live.stream is not None
    for character in text:
        view.append_tokens(character)
        view.flush()
        live.stream.render_now()
        assert "`" not in shown_text(live) and "~" not in shown_text(live), shown_text(live)


def test_an_open_code_fence_at_the_end_shows_as_an_open_code_block(view: ChatView, qtbot: QtBot) -> None:
    live = stream(view, "Here:\n```python\nx = 1\ny = ", step=3)
    rendered(live, qtbot)
    assert "```" not in shown_text(live)
    assert "python  Copy" in shown_text(live)
    assert live.body.document().find("y = ").block().blockFormat().nonBreakableLines()


def test_single_newlines_stay_line_breaks_while_streaming_and_after(view: ChatView, qtbot: QtBot) -> None:
    poem = "Roses are red,\nviolets are blue.\n\nA new stanza."
    live = stream(view, poem, step=5)
    rendered(live, qtbot)
    assert lines_shown(live) == ["Roses are red,", "violets are blue.", "A new stanza."]
    finished = view.finish_reply(poem)
    assert finished is live
    assert lines_shown(finished) == ["Roses are red,", "violets are blue.", "A new stanza."]


@pytest.mark.parametrize(
    "reply",
    [REPLY, "Ends in a code block:\n\n```python\nprint(1)\n```", "| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n> quoted"],
    ids=["list, code and text", "a closing fence last", "table, rule and quote"],
)
def test_the_rendered_document_and_its_height_do_not_change_when_the_reply_finishes(
    view: ChatView, qtbot: QtBot, reply: str
) -> None:
    live = stream(view, reply, step=7)
    rendered(live, qtbot)
    QApplication.processEvents()
    width = live.body.width()
    html, height = live.body.document().toHtml(), live.body.heightForWidth(width)
    finished = view.finish_reply(reply)
    assert finished is live
    assert finished.body.document().toHtml() == html
    assert finished.body.heightForWidth(width) == height


def test_the_finished_reply_is_the_reply_rendered_at_once(view: ChatView, qtbot: QtBot) -> None:
    live = stream(view, REPLY, step=3)
    rendered(live, qtbot)
    view.finish_reply(REPLY)
    loaded = view.add_message("assistant", REPLY)  # as the reply shows when its chat is opened again
    assert live.body.document().toHtml() == loaded.body.document().toHtml()


def test_a_burst_of_tokens_costs_one_render_and_no_new_text_costs_none(view: ChatView, qtbot: QtBot) -> None:
    live = view.begin_reply()
    renders = renders_of(live)
    for _ in range(500):
        view.append_tokens("word ")
        view.flush()
    assert renders == []  # nothing is rendered per token
    rendered(live, qtbot)
    assert len(renders) == 1
    for _ in range(500):
        view.append_tokens("more ")
        view.flush()
    rendered(live, qtbot)
    assert len(renders) == 2
    qtbot.wait(400)  # several render intervals with nothing new
    assert len(renders) == 2


def test_a_long_reply_of_paragraphs_re_renders_only_its_last_paragraphs(view: ChatView) -> None:
    live = view.begin_reply()
    assert live.stream is not None
    paragraphs = 60
    for index in range(paragraphs):
        for word in f"Paragraph {index} says something about the sea.\n\n".split(" "):
            view.append_tokens(word + " ")
            view.flush()
        live.stream.render_now()
    # Each render renders the paragraph that grew, and once the one before it as it settled.
    assert live.markdown.rendered_pieces <= 2 * paragraphs
    assert shown_text(live).count("says something about the sea.") == paragraphs


def test_a_long_code_block_streams_re_rendering_only_its_last_part(view: ChatView) -> None:
    live = view.begin_reply()
    assert live.stream is not None
    view.append_tokens("```python\n")
    lines, renders = 500, 0
    for index in range(lines):
        view.append_tokens(f"value_{index} = {index}  # a line of a long code block\n")
        if index % 25 == 24:
            view.flush()
            live.stream.render_now()
            renders += 1
    assert live.markdown.rendered_pieces <= 2 * renders
    assert shown_text(live).count("# a line of a long code block") == lines
    assert shown_text(live).count("Copy") == 1  # still one code block, with one header


def test_code_copied_from_a_streamed_reply_is_the_code_of_that_block(view: ChatView, qtbot: QtBot) -> None:
    text = "One:\n\n```sh\necho one\n```\n\nTwo:\n\n```sh\necho two\n```\n\nEnd."
    live = stream(view, text, step=2)
    rendered(live, qtbot)
    finished = view.finish_reply(text)
    assert finished is not None
    document = finished.body.document()
    assert copied(document, 0) == "echo one" and copied(document, 1) == "echo two"


def copied(document: QTextDocument, index: int) -> str | None:
    return copied_code(document, QUrl(f"glassbox-copy:{index}"))


# ---- a hostile reply neither hangs nor crashes the window ------------------------------------

HOSTILE = {
    "a huge single line": "x" * 200_000,
    "a 100k-character code block": "```python\n" + "value = [1, 2, 3]  # a list\n" * 3_600 + "```\n",
    "unbalanced fences": "```\nopen\n```\n```\n" * 300 + "~~~~\n```\nstill code\n",
    "HTML and script tags": "<script>alert('x')</script>\n<div style='x'><b>bold?</b></div>\n" * 200,
    "deeply nested lists": "- " * 2_000 + "deep\n" + "".join("  " * level + "- item\n" for level in range(400)),
    "deep brackets and emphasis": "[" * 5_000 + "*_" * 5_000 + "]" * 5_000,
}


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_reply_streams_and_finishes_without_hanging_the_window(view: ChatView, text: str) -> None:
    live = view.begin_reply()
    assert live.stream is not None
    for start in range(0, len(text), 10_000):
        view.append_tokens(text[start : start + 10_000])
        view.flush()
        live.stream.render_now()
        QApplication.processEvents()
    finished = view.finish_reply(text)
    assert finished is not None and finished.text == text
    view.grab()  # lays out and paints it
    assert finished.body.height() > 0


def test_tags_in_a_streaming_reply_are_shown_as_text(view: ChatView, qtbot: QtBot) -> None:
    live = stream(view, "<script>alert('x')</script> and <b>not bold</b>", step=6)
    rendered(live, qtbot)
    assert shown_text(live) == "<script>alert('x')</script> and <b>not bold</b>"
