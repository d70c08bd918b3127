"""Images attached to the message being written: the paperclip, drops and pastes, chips with a ×, refusals.

Each image is read off the GUI thread: a test waits for the tray to settle (`attach`) before it looks."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import QMimeData, QUrl
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from app.core.chat.images import images_dir
from app.core.types.errors import IMAGES_NEED_VISION
from app.core.types.load import LoadConfig, LoadReport
from app.ui.chat.attachments import AttachmentTray, ImageChip, images_refusal
from app.ui.chat.composer import Composer


@pytest.fixture
def tray(qtbot: QtBot) -> Iterator[AttachmentTray]:
    attachments = AttachmentTray()
    qtbot.addWidget(attachments)
    yield attachments
    attachments.shutdown()


def attach(qtbot: QtBot, tray: AttachmentTray, action: Callable[[], object]) -> None:
    """Do what attaches images (a drop, a paste, a choice) and wait until they are read."""
    with qtbot.waitSignal(tray.settled, timeout=10_000):
        action()


@pytest.fixture
def composer(qtbot: QtBot, tray: AttachmentTray) -> Composer:
    box = Composer(attachments=tray)
    qtbot.addWidget(box)
    return box


def _image_file(folder: Path, name: str, image_format: str, colour: str = "red") -> Path:
    encoded = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(encoded, image_format)
    path = folder / name
    path.write_bytes(encoded.getvalue())
    return path


def _chips(tray: AttachmentTray) -> list[ImageChip]:
    return tray.findChildren(ImageChip)


@pytest.mark.parametrize(
    ("name", "image_format"),
    [("a.png", "PNG"), ("b.jpg", "JPEG"), ("c.webp", "WEBP"), ("d.gif", "GIF"), ("e.bmp", "BMP")],
)
def test_each_image_format_a_chat_takes_is_attached_as_a_thumbnail_chip(
    tray: AttachmentTray, tmp_path: Path, name: str, image_format: str, qtbot: QtBot
) -> None:
    attach(qtbot, tray, lambda: tray.add_files([_image_file(tmp_path, name, image_format)]))
    [chip] = _chips(tray)
    assert tray.images == (chip.path,)
    assert chip.path.parent == images_dir(), "prepared in the data folder, not the user's file"
    assert not chip.picture.pixmap().isNull()
    assert max(chip.picture.pixmap().width(), chip.picture.pixmap().height()) <= 48
    assert not tray.isHidden() and tray.refusal.isHidden()


def test_the_chips_x_takes_an_image_off_the_message(tray: AttachmentTray, tmp_path: Path, qtbot: QtBot) -> None:
    files = [_image_file(tmp_path, "red.png", "PNG"), _image_file(tmp_path, "blue.png", "PNG", "blue")]
    attach(qtbot, tray, lambda: tray.add_files(files))
    red, blue = tray.images
    first = next(chip for chip in _chips(tray) if chip.path == red)
    first.remove_button.click()
    assert tray.images == (blue,)
    tray.clear()
    assert tray.images == () and tray.isHidden()


def test_a_damaged_image_is_refused_in_one_line_and_nothing_attached_or_typed_is_lost(
    composer: Composer, tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    composer.setPlainText("What is in these?")
    good = _image_file(tmp_path, "good.png", "PNG")
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(good.read_bytes()[:60])
    attach(qtbot, tray, lambda: tray.add_files([good]))
    attach(qtbot, tray, lambda: tray.add_files([damaged]))
    assert len(tray.images) == 1
    assert not tray.refusal.isHidden()
    assert "damaged.png" in tray.refusal.text() and "\n" not in tray.refusal.text()
    assert composer.toPlainText() == "What is in these?"


def test_a_text_file_named_like_an_image_is_refused(tray: AttachmentTray, tmp_path: Path, qtbot: QtBot) -> None:
    fake = tmp_path / "notes.jpg"
    fake.write_text("not a picture")
    attach(qtbot, tray, lambda: tray.add_files([fake]))
    assert tray.images == ()
    assert "notes.jpg is not an image" in tray.refusal.text()


def test_dropping_image_files_on_the_composer_attaches_them_and_other_files_stay_text(
    composer: Composer, tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    dropped = QMimeData()
    dropped.setUrls([QUrl.fromLocalFile(str(_image_file(tmp_path, "photo.jpeg", "JPEG")))])
    assert composer.canInsertFromMimeData(dropped)
    attach(qtbot, tray, lambda: composer.insertFromMimeData(dropped))
    assert len(tray.images) == 1
    assert composer.toPlainText() == ""

    text = QMimeData()
    text.setText("plain words")
    composer.insertFromMimeData(text)
    assert composer.toPlainText() == "plain words"
    assert len(tray.images) == 1


def test_pasting_a_picture_from_the_clipboard_attaches_it(
    composer: Composer, tray: AttachmentTray, qtbot: QtBot
) -> None:
    picture = QImage(20, 10, QImage.Format.Format_RGB32)
    picture.fill(QColor("green"))
    pasted = QMimeData()
    pasted.setImageData(picture)
    assert composer.canInsertFromMimeData(pasted)
    attach(qtbot, tray, lambda: composer.insertFromMimeData(pasted))
    [path] = tray.images
    assert Image.open(path).size == (20, 10)


def test_a_message_of_images_alone_can_be_sent(
    composer: Composer, tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    sent: list[str] = []
    composer.submitted.connect(sent.append)
    composer.submit()
    assert sent == [], "nothing to send"
    attach(qtbot, tray, lambda: tray.add_files([_image_file(tmp_path, "a.png", "PNG")]))
    composer.submit()
    assert sent == [""]


def test_a_box_without_attachments_takes_a_dropped_image_file_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    box = Composer()
    qtbot.addWidget(box)
    dropped = QMimeData()
    dropped.setUrls([QUrl.fromLocalFile(str(_image_file(tmp_path, "a.png", "PNG")))])
    dropped.setText("a.png")
    box.insertFromMimeData(dropped)
    assert box.toPlainText() == "a.png"


def test_a_local_model_without_a_projector_refuses_images_before_anything_runs_and_names_those_that_can_see(
    tmp_path: Path,
) -> None:
    model = tmp_path / "model.gguf"
    assert images_refusal(LoadReport(LoadConfig(model))) == (
        IMAGES_NEED_VISION + " No model in your library can see images yet: download a vision model (Gemma 3, "
        "Qwen2.5-VL, Mistral Small 3.x …) with its projector."
    )
    assert images_refusal(LoadReport(LoadConfig(model)), ["gemma-3-4b-it", "qwen2.5-vl-7b"]) == (
        IMAGES_NEED_VISION + " These models in your library can see: gemma-3-4b-it, qwen2.5-vl-7b."
    )
    assert images_refusal(LoadReport(LoadConfig(model, mmproj=tmp_path / "mmproj.gguf"))) is None
    assert images_refusal(LoadReport(LoadConfig(model), server="My server")) is None, "the server answers"
    assert images_refusal(None) is None, "no model: the window says that first"


def test_an_attached_image_deleted_meanwhile_is_taken_off_and_said_before_sending(
    tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    attach(qtbot, tray, lambda: tray.add_files([_image_file(tmp_path, "red.png", "PNG")]))
    [path] = tray.images
    path.unlink()  # its last chat was deleted while it waited here
    assert not tray.sendable(None)
    assert tray.images == ()
    assert tray.refusal.text() == "An attached image was deleted meanwhile; attach it again."


def _huge_png(folder: Path) -> Path:
    """A PNG whose header declares 20000 × 20000 pixels (1.2 GB as RGB)."""
    header = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
    chunks = [(b"IHDR", header), (b"IDAT", zlib.compress(b"")), (b"IEND", b"")]
    path = folder / "huge.png"
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + b"".join(
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
            for kind, body in chunks
        )
    )
    return path


def test_an_image_is_read_off_the_gui_thread_and_a_20000_by_20000_one_is_refused_there(
    composer: Composer, tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    composer.setPlainText("Look at this.")
    tray.add_files([_huge_png(tmp_path)])
    # add_files came back before the picture was read: the window went on meanwhile.
    assert tray.is_reading and not tray.reading.isHidden() and tray.images == ()
    assert not tray.sendable(None), "a message waits for its images"
    assert tray.refusal.text() == "The images are still being read; send once they are attached."
    qtbot.waitUntil(lambda: not tray.is_reading, timeout=10_000)
    assert tray.images == () and tray.reading.isHidden()
    assert tray.refusal.text() == "The image huge.png is too large to read (at most 64 megapixels)."
    assert composer.toPlainText() == "Look at this."


def test_an_image_taken_off_before_sending_leaves_no_file_behind(
    tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    files = [_image_file(tmp_path, "red.png", "PNG"), _image_file(tmp_path, "blue.png", "PNG", "blue")]
    attach(qtbot, tray, lambda: tray.add_files(files))
    red, blue = tray.images
    next(chip for chip in _chips(tray) if chip.path == red).remove_button.click()
    assert not red.exists() and blue.exists()
    tray.clear()  # the draft is cleared
    assert not blue.exists() and list(images_dir().glob("*.png")) == []


def test_a_sent_image_keeps_its_file_and_attaching_it_again_then_taking_it_off_keeps_it_too(
    tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    picture = _image_file(tmp_path, "red.png", "PNG")
    attach(qtbot, tray, lambda: tray.add_files([picture]))
    (sent,) = tray.take()  # the message shows it now
    assert tray.images == () and sent.exists()
    attach(qtbot, tray, lambda: tray.add_files([picture]))
    tray.clear()
    assert sent.exists(), "a message shows it"


def test_images_attached_and_never_sent_are_deleted_when_the_window_closes(
    tray: AttachmentTray, tmp_path: Path, qtbot: QtBot
) -> None:
    attach(qtbot, tray, lambda: tray.add_files([_image_file(tmp_path, "red.png", "PNG")]))
    [path] = tray.images
    tray.shutdown()
    assert not path.exists()
