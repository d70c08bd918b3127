"""Where a model's own load settings open: the button beside the model picker and the picker's context menu
(the model picked), and the Models window's Library (the model selected), each in the one dialog."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.paths import app_paths
from app.ui.shell.main_window import MainWindow
from app.ui.shell.model_loading import ModelLoader

WAIT_MS = 20_000
TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_vocab=300)


@pytest.fixture
def window(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """The window with two library models; loads are only noted (no engine runs)."""
    monkeypatch.setattr(ModelLoader, "load", lambda _loader, _path: None)
    folder = app_paths().ensure().models
    for name in ("alpha-chat.gguf", "beta-chat.gguf"):
        write_synthetic_model(folder / name, TINY)
    opened = MainWindow()
    qtbot.addWidget(opened)
    yield opened
    opened.close()


def pick(window: MainWindow, name: str) -> Path:
    picker = window.model_picker
    index = next(i for i in range(picker.count()) if str(picker.itemData(i)).endswith(name))
    picker.setCurrentIndex(index)
    return Path(picker.itemData(index))


def test_the_button_beside_the_picker_opens_the_picked_models_load_settings(window: MainWindow) -> None:
    beta = pick(window, "beta-chat.gguf")
    action = window.toolbar.load_settings
    assert action.isEnabled()
    action.trigger()
    dialog = window.models.load_settings_dialog
    assert dialog is not None and dialog.path == beta
    dialog.box.type_text("n_ctx", "2048")
    assert window.settings_store.settings.model_overrides == {"beta-chat.gguf": {"n_ctx": 2048}}


def test_the_pickers_context_menu_offers_the_picked_models_load_settings(window: MainWindow) -> None:
    alpha = pick(window, "alpha-chat.gguf")
    menu = window.models.picker_menu()
    [edit] = [action for action in menu.actions() if action.text() == "Edit load settings…"]
    assert edit.isEnabled()
    edit.trigger()
    dialog = window.models.load_settings_dialog
    assert dialog is not None and dialog.path == alpha


def test_the_model_picker_toolbar_places_the_load_settings_right_beside_the_picker(window: MainWindow) -> None:
    actions = window.toolbar.actions()
    picker_at = next(i for i, a in enumerate(actions) if window.toolbar.widgetForAction(a) is window.model_picker)
    assert actions[picker_at + 1] is window.toolbar.load_settings
    assert actions[picker_at + 2] is window.open_file.action


def test_the_models_windows_library_opens_the_selected_models_load_settings(window: MainWindow, qtbot: QtBot) -> None:
    manager = window.models.open_models()
    library = manager.library
    qtbot.waitUntil(lambda: any(e.model.path.name == "beta-chat.gguf" for e in library.entries), timeout=WAIT_MS)
    beta = next(e.model.path for e in library.entries if e.model.path.name == "beta-chat.gguf")
    library.select(beta)
    assert library.settings_button.isEnabled() and library.settings_action.isEnabled()
    library.settings_button.click()
    dialog = window.models.load_settings_dialog
    assert dialog is not None and dialog.path == beta
    assert dialog.parent() is manager, "it opens over the Models window"
    assert "next load of beta-chat.gguf" in dialog.note.text()
