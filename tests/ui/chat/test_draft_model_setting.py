"""The draft model in the settings panel: chosen from the library, saved with the load settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import InvalidSetting
from app.core.settings import LoadedSettings, ModelSettings, Settings
from app.ui.chat.settings_panel import SettingsPanel
from app.ui.settings.store import SettingsStore


def draft_box(panel: SettingsPanel) -> QComboBox:
    editor = panel.model.rows["draft_model"].editor
    assert isinstance(editor, QComboBox)
    return editor


def test_a_draft_model_is_chosen_from_the_library_and_saved(qtbot: QtBot) -> None:
    panel = SettingsPanel(SettingsStore())
    qtbot.addWidget(panel)
    small = Path("/models/someone/Small-GGUF/small.Q4_0.gguf")
    panel.model.set_library([("small.Q4_0.gguf · 80 MB", small), ("big.Q4_K_M.gguf · 4 GB", Path("/models/big.gguf"))])
    box = draft_box(panel)
    assert [box.itemText(i) for i in range(box.count())] == [
        "None",
        "small.Q4_0.gguf · 80 MB",
        "big.Q4_K_M.gguf · 4 GB",
    ]
    assert box.currentText() == "None"
    box.setCurrentIndex(1)
    with qtbot.waitSignal(panel.store.saveRequested):
        box.activated.emit(1)
    assert panel.store.settings.model.draft_model == str(small)
    assert panel.store.settings.model.load_config(Path("/models/big.gguf")).draft_model == small
    assert not panel.model.reload_button.isHidden()  # it applies when the model is loaded again


def test_a_saved_draft_model_no_longer_in_the_library_is_still_shown_by_name(qtbot: QtBot) -> None:
    panel = SettingsPanel(SettingsStore(LoadedSettings(Settings(model=ModelSettings(draft_model="/gone/tiny.gguf")))))
    qtbot.addWidget(panel)
    panel.model.set_library([])
    assert draft_box(panel).currentText() == "tiny.gguf"


@pytest.mark.parametrize("value", ["notes.txt", 42, "a\x00b.gguf"])
def test_a_draft_model_setting_that_is_not_a_gguf_path_is_refused(value: object) -> None:
    with pytest.raises(InvalidSetting, match="Draft model must be"):
        Settings().with_model({"draft_model": value})
