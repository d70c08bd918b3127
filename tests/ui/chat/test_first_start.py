"""The first start in the window: the starter's welcome, typing at once, a better model, Open file…."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.memory.fit import Machine
from app.core.memory.planner import GIB
from app.core.models.recommended import RECOMMENDED_MODELS
from app.core.paths import app_paths
from app.ui.shell.main_window import MainWindow
from tests.fakes.fake_hub import FakeHub, gguf_bytes
from tests.fakes.memory_keyring import MemoryKeyring
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS, WindowOpener

WAIT_MS = 30_000
SMALLEST = RECOMMENDED_MODELS[0]


def test_the_starter_is_welcomed_as_a_demo_typing_works_at_once_and_the_first_message_ends_the_welcome(
    open_main_window: WindowOpener, qtbot: QtBot
) -> None:
    main = open_main_window()
    welcome = main.get_started.welcome
    assert welcome.isVisible() and welcome.better_button.isVisible()
    assert "tiny demo with 135 million parameters" in welcome.starter_note.text()
    qtbot.waitUntil(main.composer.hasFocus, timeout=WAIT_MS)  # after the show and the load
    qtbot.keyClicks(QApplication.focusWidget(), "Say hi")
    assert main.composer.toPlainText() == "Say hi"
    with qtbot.waitSignal(main.replyFinished, timeout=WINDOW_LOAD_TIMEOUT_MS):
        qtbot.keyClick(main.composer, Qt.Key.Key_Return)
    assert not welcome.isVisible()
    main.new_chat()
    qtbot.waitUntil(welcome.isVisible, timeout=WAIT_MS)  # an empty chat again


def test_a_load_puts_the_cursor_back_in_the_message_box_unless_the_user_is_elsewhere(
    open_main_window: WindowOpener, qtbot: QtBot, starter_model: Path
) -> None:
    main = open_main_window()
    main.model_picker.setFocus()  # where choosing a model leaves it
    main.load_model(starter_model)
    assert main.get_started.welcome.progress.isVisible()  # the load's progress, in the chat
    qtbot.waitUntil(lambda: main.state.loaded_model is not None, timeout=WINDOW_LOAD_TIMEOUT_MS)
    qtbot.waitUntil(main.composer.hasFocus, timeout=WAIT_MS)

    search = main.chats.sidebar.search
    search.setFocus()
    qtbot.waitUntil(search.hasFocus, timeout=WAIT_MS)
    with qtbot.waitSignal(main.state_signals.modelLoaded, timeout=WINDOW_LOAD_TIMEOUT_MS):
        main.load_model(starter_model)
    assert search.hasFocus()  # the user was searching: the cursor stays there


def test_get_a_better_model_lists_what_fits_and_a_click_downloads_through_the_models_window(
    open_main_window: WindowOpener,
    qtbot: QtBot,
    fake_hub: FakeHub,
    memory_keyring: MemoryKeyring,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("app.ui.models.recommended_dialog.machine_now", lambda: Machine(None, 8 * GIB))
    fake_hub.add_repo(SMALLEST.repo_id, {SMALLEST.filename: gguf_bytes(tmp_path, "q.gguf")})
    main = open_main_window()
    main.get_started.welcome.better_button.click()
    dialog = main.get_started.recommended
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == len(RECOMMENDED_MODELS), timeout=WAIT_MS)
    assert "no GPU to offload to" in dialog.machine_label.text()
    button = dialog.button_for(SMALLEST.filename)
    assert button is not None
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    models = main.models.manager
    assert models is not None and models.isVisible() and models.tabs.currentWidget() is models.downloads
    owner, name = SMALLEST.repo_id.split("/")
    downloaded = app_paths().models / owner / name / SMALLEST.filename
    qtbot.waitUntil(lambda: main.model_picker.findData(str(downloaded)) >= 0, timeout=WAIT_MS)  # in the picker


@pytest.mark.requires_model  # the window loads the starter at start
def test_open_file_adds_a_gguf_and_loads_it_and_then_an_empty_chat_names_it_without_the_demo_text(
    qtbot: QtBot, tmp_path: Path
) -> None:
    model = write_synthetic_model(tmp_path / "tiny-chat.gguf", SyntheticModel(n_layers=1, n_embd=64, n_vocab=300))
    main = MainWindow()
    qtbot.addWidget(main)
    main.show()
    qtbot.waitUntil(main.composer.hasFocus, timeout=WAIT_MS)  # once shown, not only after the starter's load
    main.open_file.opener.choose_file = lambda: model
    assert main.open_file.action in main.tools_menu.actions()
    main.open_file.action.trigger()
    qtbot.waitUntil(lambda: main.state.loaded_model == model, timeout=WINDOW_LOAD_TIMEOUT_MS)
    welcome = main.get_started.welcome
    assert welcome.title.text() == model.name
    assert not welcome.starter_note.isVisible() and not welcome.better_button.isVisible()
    assert main.model_picker.currentData() == str(model)


@pytest.mark.requires_model
@pytest.mark.expected_log("app.errors", logging.ERROR, "this is not a GGUF file")
def test_open_file_with_a_file_that_is_not_a_model_says_so_and_the_model_on_duty_stays(
    open_main_window: WindowOpener, qtbot: QtBot, tmp_path: Path
) -> None:
    main = open_main_window()
    loaded = main.state.loaded_model
    notes = tmp_path / "notes.gguf"
    notes.write_text("just some notes, not a model\n" * 8)
    main.open_file.opener.choose_file = lambda: notes
    main.open_file.action.trigger()
    qtbot.waitUntil(lambda: "this is not a GGUF file" in main.error_banner.message(), timeout=WAIT_MS)
    assert main.state.loaded_model == loaded and not main.state.is_loading
