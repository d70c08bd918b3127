"""A message's images in the chat view: thumbnails above its text; a click opens the image."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from app.ui.chat import message_images
from app.ui.chat.message_images import MessageImages
from app.ui.chat.view import ChatView
from tests.helpers.vision import picture


def test_a_message_shows_each_image_as_a_thumbnail_above_its_text(view: ChatView, tmp_path: Path) -> None:
    red, blue = picture(tmp_path, "red.png"), picture(tmp_path, "blue.png", (20, 20, 200))
    widget = view.add_message("user", "Which is warmer?")
    widget.show_images((red, blue))
    [row] = widget.findChildren(MessageImages)
    assert [not button.icon().isNull() for button in row.buttons] == [True, True]
    layout = widget.layout()
    assert layout.indexOf(row) < layout.indexOf(widget.body), "the images come before the text"
    assert widget.body.isVisibleTo(widget)


def test_a_message_of_images_alone_shows_no_empty_text(view: ChatView, tmp_path: Path) -> None:
    widget = view.add_message("user", "")
    widget.show_images((picture(tmp_path),))
    assert not widget.body.isVisibleTo(widget)


def test_a_message_without_images_shows_no_image_row(view: ChatView) -> None:
    widget = view.add_message("user", "Just words")
    widget.show_images(())
    assert widget.findChildren(MessageImages) == []


def test_clicking_a_thumbnail_opens_the_image_file(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(message_images.QDesktopServices, "openUrl", opened.append)
    image = picture(tmp_path)
    row = MessageImages((image,))
    qtbot.addWidget(row)
    row.buttons[0].click()
    assert [url.toLocalFile() for url in opened] == [str(image)]


def test_an_image_whose_file_is_gone_keeps_its_place_and_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    row = MessageImages((tmp_path / "gone.png",))
    qtbot.addWidget(row)
    [button] = row.buttons
    assert not button.isEnabled()
    assert button.text() == "Image missing"
    assert "gone.png" in button.toolTip()
