"""Images attached to the message being written: the paperclip, drops and pastes, chips with a ×, refusals."""

from __future__ import annotations

import io
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
def tray(qtbot: QtBot) -> AttachmentTray:
    attachments = AttachmentTray()
    qtbot.addWidget(attachments)
    return attachments


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
    tray: AttachmentTray, tmp_path: Path, name: str, image_format: str
) -> None:
    tray.add_files([_image_file(tmp_path, name, image_format)])
    [chip] = _chips(tray)
    assert tray.images == (chip.path,)
    assert chip.path.parent == images_dir(), "prepared in the data folder, not the user's file"
    assert not chip.picture.pixmap().isNull()
    assert max(chip.picture.pixmap().width(), chip.picture.pixmap().height()) <= 48
    assert not tray.isHidden() and tray.refusal.isHidden()


def test_the_chips_x_takes_an_image_off_the_message(tray: AttachmentTray, tmp_path: Path, qtbot: QtBot) -> None:
    tray.add_files([_image_file(tmp_path, "red.png", "PNG"), _image_file(tmp_path, "blue.png", "PNG", "blue")])
    red, blue = tray.images
    first = next(chip for chip in _chips(tray) if chip.path == red)
    first.remove_button.click()
    assert tray.images == (blue,)
    tray.clear()
    assert tray.images == () and tray.isHidden()


def test_a_damaged_image_is_refused_in_one_line_and_nothing_attached_or_typed_is_lost(
    composer: Composer, tray: AttachmentTray, tmp_path: Path
) -> None:
    composer.setPlainText("What is in these?")
    good = _image_file(tmp_path, "good.png", "PNG")
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(good.read_bytes()[:60])
    tray.add_files([good])
    tray.add_files([damaged])
    assert len(tray.images) == 1
    assert not tray.refusal.isHidden()
    assert "damaged.png" in tray.refusal.text() and "\n" not in tray.refusal.text()
    assert composer.toPlainText() == "What is in these?"


def test_a_text_file_named_like_an_image_is_refused(tray: AttachmentTray, tmp_path: Path) -> None:
    fake = tmp_path / "notes.jpg"
    fake.write_text("not a picture")
    tray.add_files([fake])
    assert tray.images == ()
    assert "notes.jpg is not an image" in tray.refusal.text()


def test_dropping_image_files_on_the_composer_attaches_them_and_other_files_stay_text(
    composer: Composer, tray: AttachmentTray, tmp_path: Path
) -> None:
    dropped = QMimeData()
    dropped.setUrls([QUrl.fromLocalFile(str(_image_file(tmp_path, "photo.jpeg", "JPEG")))])
    assert composer.canInsertFromMimeData(dropped)
    composer.insertFromMimeData(dropped)
    assert len(tray.images) == 1
    assert composer.toPlainText() == ""

    text = QMimeData()
    text.setText("plain words")
    composer.insertFromMimeData(text)
    assert composer.toPlainText() == "plain words"
    assert len(tray.images) == 1


def test_pasting_a_picture_from_the_clipboard_attaches_it(composer: Composer, tray: AttachmentTray) -> None:
    picture = QImage(20, 10, QImage.Format.Format_RGB32)
    picture.fill(QColor("green"))
    pasted = QMimeData()
    pasted.setImageData(picture)
    assert composer.canInsertFromMimeData(pasted)
    composer.insertFromMimeData(pasted)
    [path] = tray.images
    assert Image.open(path).size == (20, 10)


def test_a_message_of_images_alone_can_be_sent(composer: Composer, tray: AttachmentTray, tmp_path: Path) -> None:
    sent: list[str] = []
    composer.submitted.connect(sent.append)
    composer.submit()
    assert sent == [], "nothing to send"
    tray.add_files([_image_file(tmp_path, "a.png", "PNG")])
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
    tray: AttachmentTray, tmp_path: Path
) -> None:
    tray.add_files([_image_file(tmp_path, "red.png", "PNG")])
    [path] = tray.images
    path.unlink()  # its last chat was deleted while it waited here
    assert not tray.sendable(None)
    assert tray.images == ()
    assert tray.refusal.text() == "An attached image was deleted meanwhile; attach it again."
