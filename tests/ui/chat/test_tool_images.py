"""Images in a tool's result: thumbnails under the call, decoded by Qt as raster images only, size capped;
server-everything's get-tiny-image is the image a real server sends."""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage, QImageWriter
from pytestqt.qtbot import QtBot

from app.core.tools.config import McpServer
from app.core.tools.manager import McpManager, Timeouts
from app.ui.chat.tool_call_step import SavedCall, ToolCallStep
from app.ui.chat.tool_images import MAX_IMAGES, THUMBNAIL_PX, png_thumbnails, thumbnail
from tests.core.tools.conftest import everything_js, everything_stdio

__all__ = ["everything_js", "everything_stdio"]  # fixtures of the MCP tests, used here


def png(width: int, height: int) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("teal"))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    QImageWriter(buffer, QByteArray(b"png")).write(image)
    return bytes(buffer.data().data())


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says it is `width` × `height` (its data is a few bytes: a decompression bomb's shape)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


@pytest.fixture
def manager() -> Iterator[McpManager]:
    manager = McpManager(timeouts=Timeouts(start_s=60.0, list_s=20.0, call_s=20.0))
    yield manager
    manager.close()


def test_a_servers_image_shows_as_a_thumbnail_under_the_call(
    qtbot: QtBot, manager: McpManager, everything_stdio: McpServer
) -> None:
    manager.configure([everything_stdio])
    result = manager.call("everything", "get-tiny-image", {})
    [image] = result.images()
    step = ToolCallStep("everything", "get-tiny-image", "{}", None)
    qtbot.addWidget(step)
    step.show()
    step.show_result(SavedCall("everything", "get-tiny-image", "{}", result.text(), images=png_thumbnails([image])))

    assert step.images is not None and not step.images.isHidden()
    [label] = step.images.labels
    decoded = QImage.fromData(image)
    assert (label.pixmap().width(), label.pixmap().height()) == (decoded.width(), decoded.height())  # tiny: as it is
    assert "image/png" in result.text()  # the text the model reads names it


def test_a_large_image_is_scaled_down_to_a_thumbnail() -> None:
    image = thumbnail(png(2000, 1000))
    assert image is not None
    assert (image.width(), image.height()) == (THUMBNAIL_PX, THUMBNAIL_PX // 2)


@pytest.mark.parametrize(
    "data",
    [
        png_claiming(100_000, 100_000),  # not decoded: its header alone says too much
        b'<svg xmlns="http://www.w3.org/2000/svg"><image href="http://example.com/x.png"/></svg>',
        b"\x89PNG\r\n\x1a\n but then nothing an image is made of",
        b"",
    ],
    ids=["too-many-pixels", "svg", "broken-png", "empty"],
)
def test_what_is_not_a_plain_raster_image_of_a_sane_size_is_not_shown(data: bytes) -> None:
    assert thumbnail(data) is None
    assert png_thumbnails([data]) == ()


def test_a_call_keeps_at_most_a_few_thumbnails() -> None:
    kept = png_thumbnails([png(8, 8)] * (MAX_IMAGES + 3))
    assert len(kept) == MAX_IMAGES


def test_thumbnails_are_kept_with_the_saved_call_and_shown_when_the_chat_is_opened_again(qtbot: QtBot) -> None:
    call = SavedCall("draw", "square", "{}", "[image: image/png, 1 KiB]", images=png_thumbnails([png(400, 400)]))
    again = SavedCall.from_dict(call.to_dict())
    assert again == call
    step = ToolCallStep("draw", "square", "{}", None)
    qtbot.addWidget(step)
    step.show_result(again)
    assert step.images is not None
    [label] = step.images.labels
    assert label.pixmap().width() == THUMBNAIL_PX
    assert "160 × 160" in label.accessibleName()


def test_a_saved_thumbnail_that_is_not_an_image_is_left_out(qtbot: QtBot) -> None:
    odd = {
        **SavedCall("draw", "square", "{}").to_dict(),
        "images": ["not base64!", 3, base64.b64encode(b"GIF").decode()],
    }
    call = SavedCall.from_dict(odd)
    assert call is not None and call.images == ("not base64!", base64.b64encode(b"GIF").decode())
    step = ToolCallStep("draw", "square", "{}", None)
    qtbot.addWidget(step)
    step.show_result(call)
    assert step.images is not None and step.images.labels == []
