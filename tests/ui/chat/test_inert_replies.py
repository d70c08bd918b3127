"""A model's reply is inert: nothing in it is loaded, no HTML in it acts, and a link opens only when clicked.

Each hostile reply here once crashed, froze or read files through Qt's text document; now it
is shown as text. Qt's Markdown reader still asks its document about an image while it
reads (before the renderer turns the image into its alt text): the inert document answers
with a blank pixel, so the `resource_requests` spy checks that every answer came from there,
and an ordinary file's access time shows it was never read. A read of a named pipe with no
writer never returns: a regression here ends the run (exit status 1) instead of hanging it.
"""

from __future__ import annotations

import faulthandler
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QHelpEvent, QImage, QTextCursor, QTextDocument, QTextImageFormat
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QToolTip
from pytestqt.qtbot import QtBot

from app.core.chat.store import ChatStore
from app.core.paths import app_paths
from app.ui.chat.view import ChatView, MessageWidget
from app.ui.widgets.inert_text import InertDocument, InertTextView
from tests.helpers.windows import WindowOpener

HANG_LIMIT_S = 60
pytestmark = pytest.mark.timeout(HANG_LIMIT_S)


@pytest.fixture(autouse=True)
def ends_if_it_hangs() -> Iterator[None]:
    """End the run if a test here hangs (with -s, printing where each thread was).

    A read of a named pipe blocks inside Qt with the GIL held, where pytest-timeout (a signal
    handler or a Python thread) cannot act; faulthandler's watchdog is a C thread and can.
    """
    faulthandler.dump_traceback_later(HANG_LIMIT_S + 30, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def resource_requests(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every resource an inert document or view is asked for; each answer must be blank (nothing read)."""
    asked: list[str] = []
    answers: list[Any] = []
    for cls in (InertDocument, InertTextView):
        original = cls.loadResource

        def spy(self: Any, kind: int, name: QUrl | str, original: Any = original) -> Any:
            asked.append(name.toString() if isinstance(name, QUrl) else name)
            answers.append(original(self, kind, name))
            return answers[-1]

        monkeypatch.setattr(cls, "loadResource", spy)
    yield asked
    for answer in answers:
        assert answer == "" or (isinstance(answer, QImage) and answer.size().width() == 1), answer


def untouched_since(path: Path) -> float:
    """Put the file's access time far in the past (so reading it would move it); return that time."""
    os.utime(path, ns=(1_000_000_000, path.stat().st_mtime_ns))
    return path.stat().st_atime


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    """A named pipe nobody writes to: reading it blocks for ever."""
    path = tmp_path / "pipe.png"
    os.mkfifo(path)
    return path


@pytest.fixture
def picture(tmp_path: Path) -> Path:
    path = tmp_path / "secret.png"
    image = QImage(64, 48, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.red)
    assert image.save(str(path))
    return path


def reply(view: ChatView, text: str) -> MessageWidget:
    """Stream `text` as a reply and finish it, then lay it out and paint it as the window would."""
    view.begin_reply()
    view.append_tokens(text)
    view.flush()
    message = view.finish_reply(text)
    assert message is not None
    shown(view)
    return message


def shown(view: ChatView) -> None:
    for _ in range(3):
        QApplication.processEvents()
    view.grab()  # paints every message: an image would be loaded now at the latest


def body_text(message: MessageWidget) -> str:
    return message.body.document().toPlainText()


def images_in(document: QTextDocument) -> list[str]:
    names = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            char_format = fragments.fragment().charFormat()
            if char_format.isImageFormat():
                names.append(char_format.toImageFormat().name())
            fragments += 1
        block = block.next()
    return names


def anchors_in(document: QTextDocument) -> dict[str, str]:
    """Link text → address, for every link the reader could click."""
    links = {}
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if fragment.charFormat().isAnchor():
                links[fragment.text()] = fragment.charFormat().anchorHref()
            fragments += 1
        block = block.next()
    return links


def point_at(message: MessageWidget, text: str) -> QPoint:
    """Where the middle of the first occurrence of `text` is in the message's body (viewport coordinates)."""
    document = message.body.document()
    found = document.find(text)
    assert not found.isNull(), f"{text!r} is not shown"
    cursor = QTextCursor(document)
    cursor.setPosition((found.selectionStart() + found.selectionEnd()) // 2)
    return message.body.cursorRect(cursor).center()


def click_on(message: MessageWidget, text: str) -> None:
    QTest.mouseClick(
        message.body.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point_at(message, text)
    )


class UrlRecorder(QObject):
    """Stands in for the web browser: QDesktopServices hands it the URLs it would open."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def browser() -> Iterator[UrlRecorder]:
    recorder = UrlRecorder()
    schemes = ("http", "https", "file", "javascript", "data")
    for scheme in schemes:
        QDesktopServices.setUrlHandler(scheme, recorder, "open")
    yield recorder
    for scheme in schemes:
        QDesktopServices.unsetUrlHandler(scheme)


# ---- images are never fetched ---------------------------------------------------------------


def test_a_markdown_image_of_dev_zero_is_shown_as_its_alt_text(view: ChatView, resource_requests: list[str]) -> None:
    message = reply(view, "Look: ![a cat](/dev/zero) and more")
    assert body_text(message) == "Look: a cat and more"
    assert images_in(message.body.document()) == []
    assert set(resource_requests) <= {"/dev/zero"}  # asked while reading, answered blank


def test_a_markdown_image_of_a_named_pipe_does_not_hang_the_window(
    view: ChatView, fifo: Path, resource_requests: list[str]
) -> None:
    message = reply(view, f"![diagram]({fifo}) and ![again](file://{fifo})")
    assert body_text(message) == "diagram and again"
    assert images_in(message.body.document()) == []


def test_an_image_of_an_ordinary_file_is_not_read(view: ChatView, picture: Path, resource_requests: list[str]) -> None:
    accessed = untouched_since(picture)
    message = reply(view, f"![the model](<{picture}>) ![again](file://{picture})\n\n![](<{picture}>)")
    assert body_text(message) == "the model again"
    assert images_in(message.body.document()) == []
    assert message.body.height() < 48  # as tall as a line of text, not as the picture
    assert picture.stat().st_atime == accessed


def test_an_image_names_its_address_in_an_escaped_tooltip(view: ChatView) -> None:
    message = reply(view, "![pic](/tmp/<b>bold</b>.png)")
    cursor = message.body.document().find("pic")
    tooltip = cursor.charFormat().toolTip()
    assert "Image not loaded" in tooltip
    assert "<b>" not in tooltip and "&lt;b&gt;bold&lt;/b&gt;" in tooltip


# ---- raw HTML is text -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Line one<br>line two",
        "Use the <div> tag for blocks.",
        '<img src="file:///dev/zero"> after',
        '<span style="background-image:url(file:///dev/zero)">styled</span>',
        "<style>body { display: none }</style>",
        "<script>alert(1)</script>",
        '<a href="file:///etc/passwd">passwords</a>',
        '<p style="color: white">hidden?</p>',
    ],
)
def test_raw_html_in_a_reply_is_shown_as_the_characters_it_is(
    view: ChatView, text: str, resource_requests: list[str]
) -> None:
    message = reply(view, text)
    assert body_text(message) == text
    assert anchors_in(message.body.document()) == {}
    assert resource_requests == []


def test_html_is_text_in_a_block_too(view: ChatView) -> None:
    text = "<div>\nfirst\n</div>\n\n<table><tr><td>cell</td></tr></table>"
    message = reply(view, text)
    # Every character is still there, line by line.
    assert body_text(message).split("\n") == ["<div>", "first", "</div>", "<table><tr><td>cell</td></tr></table>"]


def test_markdown_formatting_still_works(view: ChatView) -> None:
    message = reply(view, "**bold** and `code`\n\n- one\n- two")
    document = message.body.document()
    assert body_text(message) == "bold and code\none\ntwo"
    assert document.find("bold").charFormat().fontWeight() == 700


# ---- links ----------------------------------------------------------------------------------


def test_only_web_links_are_links(view: ChatView) -> None:
    message = reply(
        view,
        "[js](javascript:alert(1)) [passwd](file:///etc/passwd) <file:///etc/hosts> [data](data:text/html,hi) "
        "[relative](../notes.md) [ftp](ftp://example.org/x) http://plain.example",
    )
    assert body_text(message) == "js passwd file:///etc/hosts data relative ftp http://plain.example"
    assert anchors_in(message.body.document()) == {"http://plain.example": "http://plain.example"}


def test_a_link_shows_its_address_on_hover_escaped_whatever_its_title(view: ChatView) -> None:
    message = reply(view, '[docs](https://example.org/docs "<img src=/dev/zero>")')
    link = message.body.document().find("docs").charFormat()
    assert link.isAnchor() and link.anchorHref() == "https://example.org/docs"
    assert "https://example.org/docs" in link.toolTip()
    assert "<img" not in link.toolTip()


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform stacks no windows
def test_hovering_a_link_shows_its_address(view: ChatView) -> None:
    message = reply(view, "Read [the manual](https://example.org/manual) first.")
    point = point_at(message, "the manual")
    viewport = message.body.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, point, viewport.mapToGlobal(point)))
    try:
        assert QToolTip.isVisible() and "https://example.org/manual" in QToolTip.text()
    finally:
        QToolTip.hideText()


def test_a_look_alike_host_is_shown_in_its_ascii_form(view: ChatView) -> None:
    message = reply(view, "[bank](https://раураl.com/login)")
    href = anchors_in(message.body.document())["bank"]
    assert href.startswith("https://xn--")


def test_clicking_a_web_link_asks_first_then_opens_it(
    view: ChatView, browser: UrlRecorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(view, "confirm_open_link", lambda address: asked.append(address) or True)
    message = reply(view, "See [the docs](https://example.org/docs?page=2) for more.")
    assert browser.opened == []  # rendering opens nothing
    click_on(message, "the docs")
    assert asked == ["https://example.org/docs?page=2"]
    assert browser.opened == ["https://example.org/docs?page=2"]


def test_a_web_link_stays_closed_when_the_reader_declines(
    view: ChatView, browser: UrlRecorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(view, "confirm_open_link", lambda _address: False)
    message = reply(view, "See [the docs](https://example.org/docs).")
    click_on(message, "the docs")
    assert browser.opened == []


def test_clicking_a_javascript_or_file_link_opens_nothing(
    view: ChatView, browser: UrlRecorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(view, "confirm_open_link", lambda address: asked.append(address) or True)
    message = reply(view, "[run me](javascript:alert(1)) and [read me](file:///etc/passwd)")
    for text in ("run me", "read me"):
        assert message.body.anchorAt(point_at(message, text)) == ""  # nothing there to click
    for forged in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "/etc/passwd"):
        view.open_link(QUrl(forged))  # even an anchor that got past the renderer
    assert asked == [] and browser.opened == []


def test_the_confirmation_shows_the_address_as_plain_text(view: ChatView, monkeypatch: pytest.MonkeyPatch) -> None:
    shown_boxes: list[QMessageBox] = []

    def answer(box: QMessageBox) -> int:
        shown_boxes.append(box)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "exec", answer)
    assert view.confirm_open_link("https://example.org/%3Cb%3E") is False
    (box,) = shown_boxes
    assert "https://example.org/%3Cb%3E" in box.text()
    assert box.textFormat() == Qt.TextFormat.PlainText


# ---- the streaming reply --------------------------------------------------------------------


def test_a_streaming_reply_is_rendered_as_inertly_as_a_finished_one(
    view: ChatView, fifo: Path, resource_requests: list[str]
) -> None:
    hostile = f'![x](/dev/zero) <img src="{fifo}"> <b>not bold</b> [a](javascript:alert(1))'
    live = view.begin_reply()
    view.append_tokens(hostile)
    view.flush()
    assert live.stream is not None
    live.stream.render_now()
    shown(view)
    assert view.is_streaming and live.streamed_text() == hostile
    assert body_text(live) == f'x <img src="{fifo}"> <b>not bold</b> a'  # tags as text, the image as its alt
    assert images_in(live.body.document()) == [] and anchors_in(live.body.document()) == {}
    assert resource_requests == []


# ---- the document itself loads nothing (the second line of defence) -------------------------


def test_an_inert_document_answers_image_requests_without_reading_the_file(
    qtbot: QtBot, fifo: Path, picture: Path, resource_requests: list[str]
) -> None:
    text_view = InertTextView()
    qtbot.addWidget(text_view)
    cursor = QTextCursor(text_view.document())
    for name in (str(fifo), str(picture), "/dev/zero", f"file://{fifo}"):
        image = QTextImageFormat()
        image.setName(name)
        cursor.insertImage(image)
    text_view.resize(400, 100)
    text_view.show()
    qtbot.waitExposed(text_view)
    text_view.grab()
    assert set(resource_requests) >= {str(fifo), "/dev/zero"}  # asked, and answered with a blank pixel
    assert text_view.document().size().height() < 48  # the picture's own 48 pixels were never read


def test_an_inert_view_answers_for_a_plain_document_it_holds(qtbot: QtBot, fifo: Path) -> None:
    text_view = InertTextView()
    qtbot.addWidget(text_view)
    document = QTextDocument(text_view)  # a plain document asks the view it belongs to
    image = QTextImageFormat()
    image.setName(str(fifo))
    QTextCursor(document).insertImage(image)
    text_view.setDocument(document)
    text_view.show()
    qtbot.waitExposed(text_view)
    text_view.grab()
    assert document.size().height() < 16


def test_an_inert_view_shows_html_without_loading_what_it_names(
    qtbot: QtBot, fifo: Path, resource_requests: list[str]
) -> None:
    text_view = InertTextView()
    qtbot.addWidget(text_view)
    text_view.setHtml(
        f'<html><head><link rel="stylesheet" type="text/css" href="{fifo}"></head><body>'
        f'<img src="{fifo}"><img src="file:///dev/zero"><p style="background-image:url(file:///dev/zero)">text</p>'
        "</body></html>"
    )
    text_view.show()
    qtbot.waitExposed(text_view)
    text_view.grab()
    assert "text" in text_view.toPlainText()
    assert set(resource_requests) == {str(fifo), "file:///dev/zero"}


# ---- a hostile reply in the history ---------------------------------------------------------


def test_a_reopened_chat_with_a_hostile_reply_opens_normally(
    open_main_window: WindowOpener, qtbot: QtBot, fifo: Path, picture: Path, resource_requests: list[str]
) -> None:
    hostile = (
        f'![zero](/dev/zero) ![pipe]({fifo}) ![file]({picture}) <img src="file:///dev/zero">\n\n'
        '<span style="background-image:url(file:///dev/zero)">x</span> Line one<br>line two '
        "[js](javascript:alert(1))"
    )
    accessed = untouched_since(picture)
    with ChatStore(app_paths().ensure().chats_db) as store:
        chat = store.create_chat("Hostile")
        store.add_message(chat.id, "user", "Show me something.")
        store.add_message(chat.id, "assistant", hostile)

    window = open_main_window()
    try:
        qtbot.waitUntil(lambda: chat.id in window.chats.sidebar.chat_ids(), timeout=10_000)
        window.chats.open_chat(chat.id)
        qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=10_000)
        shown(window.chat_view)
        answer = window.chat_view.messages()[-1]
        assert answer.text == hostile
        assert body_text(answer).startswith("zero pipe file <img")
        assert "Line one<br>line two" in body_text(answer)
        assert anchors_in(answer.body.document()) == {}
        assert images_in(answer.body.document()) == []
        assert picture.stat().st_atime == accessed
    finally:
        window.close()
