"""Images in the window with the starter model: refused before anything runs when the model cannot see;
with the synthetic projector sent, shown as thumbnails, saved with the chat and shown again when it reopens.

The synthetic projector has random weights: what the model "sees" is noise and its reply is nonsense;
these tests look only at what the window does with the images, never at what the reply says."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import GREEDY
from app.core.paths import app_paths
from app.core.settings import ModelSettings, Settings
from app.ui.chat.message_images import MessageImages
from app.ui.shell.main_window import MainWindow
from tests.helpers.vision import picture
from tests.helpers.windows import WindowOpener

QUICK = GREEDY.with_values({"max_tokens": 4})


def _loaded(window: MainWindow) -> tuple[Path, Path | None] | None:
    """The model loaded now and its projector (None while a load runs)."""
    report = window.state.load_report
    if report is None or window.state.is_loading:
        return None
    return Path(report.config.model_path), report.config.mmproj


def _stored_images() -> list[str]:
    db = sqlite3.connect(f"file:{app_paths().chats_db}?mode=ro", uri=True)
    try:
        return [row[0] for row in db.execute("SELECT images FROM messages WHERE role = 'user'")]
    finally:
        db.close()


@pytest.mark.expected_log("app.errors", logging.ERROR, r"This model cannot see images")
def test_a_model_without_a_projector_refuses_images_before_anything_runs_and_keeps_the_message(
    open_main_window: WindowOpener, qtbot: QtBot, tmp_path: Path
) -> None:
    window = open_main_window(settings=Settings(sampling=QUICK, model=ModelSettings(n_ctx=1024)))
    image = picture(tmp_path)
    with qtbot.waitSignal(window.chat_area.attachments.settled, timeout=10_000):  # read off the GUI thread
        window.chat_area.attachments.add_files([tmp_path / "red.png"])
    window.composer.setPlainText("What is in this picture?")
    window.composer.submit()
    qtbot.waitUntil(lambda: "cannot see images" in window.error_banner.message(), timeout=5_000)
    assert not window.state.is_streaming
    assert window.chats.session.shown_thread == [], "nothing was sent"
    assert window.composer.toPlainText() == "What is in this picture?"
    assert window.chat_area.attachments.images == (image,)


def test_a_message_with_an_image_is_sent_shown_saved_and_shown_again_when_the_chat_reopens(
    open_main_window: WindowOpener, qtbot: QtBot, tmp_path: Path, projector_file: Path
) -> None:
    settings = Settings(sampling=QUICK, model=ModelSettings(n_ctx=1024, mmproj=str(projector_file)))
    window: MainWindow = open_main_window(settings=settings)
    assert window.state.load_report is not None and window.state.load_report.config.mmproj == projector_file
    image = picture(tmp_path)
    with qtbot.waitSignal(window.chat_area.attachments.settled, timeout=10_000):  # read off the GUI thread
        window.chat_area.attachments.add_files([tmp_path / "red.png"])
    window.composer.setPlainText("Describe it.")
    with qtbot.waitSignal(window.replyFinished, timeout=120_000):
        window.composer.submit()
    assert window.chat_area.attachments.images == () and window.composer.toPlainText() == ""
    question = window.chat_view.messages()[0]
    [row] = question.findChildren(MessageImages)
    assert len(row.buttons) == 1
    assert window.chats.session.shown_thread[0].images == (image,)
    qtbot.waitUntil(lambda: _stored_images() == [f'["{image.name}"]'], timeout=10_000)

    chat_id = window.chats.session.chat.id
    window.new_chat()
    assert window.chat_view.messages() == []
    window.chats.open_chat(chat_id)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=10_000)
    [row] = window.chat_view.messages()[0].findChildren(MessageImages)
    assert len(row.buttons) == 1 and row.buttons[0].isEnabled()


def test_a_vision_model_in_the_library_is_marked_in_the_picker_and_loads_with_the_projector_beside_it(
    open_main_window: WindowOpener, starter_model: Path, projector_file: Path
) -> None:
    folder = app_paths().ensure().models / "synthetic" / "smol-vision-GGUF"
    folder.mkdir(parents=True)
    model = folder / "smol-vision.gguf"
    model.symlink_to(starter_model)  # the starter model, with a projector of its size beside it
    mmproj = shutil.copyfile(projector_file, folder / "mmproj-smol-vision-f16.gguf")
    window = open_main_window(settings=Settings(sampling=QUICK, model=ModelSettings(n_ctx=1024)))
    report = window.state.load_report
    assert report is not None and report.config.model_path == model
    assert report.config.mmproj == mmproj, "no projector was chosen: the one beside the model came with it"
    picker = window.model_picker
    labels = [picker.itemText(i) for i in range(picker.count())]
    assert labels[0].startswith("smol-vision — ") and labels[0].endswith(" · 👁 vision")
    assert "vision" not in labels[-1]  # the starter model cannot see
    assert picker.itemData(0, Qt.ItemDataRole.ToolTipRole) == f"Reads images: its projector is {mmproj.name}"


@pytest.mark.expected_log("app.errors", logging.ERROR, r"This model cannot see images")
def test_a_model_that_cannot_see_names_the_library_s_models_that_can_and_switches_to_one(
    open_main_window: WindowOpener, qtbot: QtBot, starter_model: Path, projector_file: Path, tmp_path: Path
) -> None:
    folder = app_paths().ensure().models / "synthetic" / "smol-vision-GGUF"
    folder.mkdir(parents=True)
    vision = folder / "smol-vision.gguf"
    vision.symlink_to(starter_model)
    mmproj = shutil.copyfile(projector_file, folder / "mmproj-smol-vision-f16.gguf")
    window = open_main_window(settings=Settings(sampling=QUICK, model=ModelSettings(n_ctx=1024)))
    window.models.pick_and_load(starter_model)  # a text model
    qtbot.waitUntil(lambda: _loaded(window) == (starter_model, None), timeout=60_000)
    image = picture(tmp_path)
    with qtbot.waitSignal(window.chat_area.attachments.settled, timeout=10_000):  # read off the GUI thread
        window.chat_area.attachments.add_files([tmp_path / "red.png"])
    window.composer.setPlainText("What is in this picture?")
    window.composer.submit()
    qtbot.waitUntil(lambda: "cannot see images" in window.error_banner.message(), timeout=5_000)
    assert window.error_banner.message().endswith("These models in your library can see: smol-vision.")
    assert window.chats.session.shown_thread == [], "nothing was sent"
    [notice] = [n for n in window.error_banner.notices() if "cannot see images" in n.text]
    assert notice.action is not None and notice.action.label == "Switch to smol-vision"

    notice.action.run()
    qtbot.waitUntil(lambda: _loaded(window) == (vision, mmproj), timeout=60_000)
    assert window.composer.toPlainText() == "What is in this picture?"  # the message waits, images and all
    assert window.chat_area.attachments.images == (image,)
