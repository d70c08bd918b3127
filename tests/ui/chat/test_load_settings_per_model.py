"""Load settings per model file: the settings panel changes the model on duty's own, which its loads use;
a model without its own loads with the defaults; "Use the defaults" forgets a model's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from app.core.settings import LoadedSettings, ModelSettings, Settings
from app.ui.chat.settings_panel import SettingsPanel
from app.ui.settings.store import SettingsStore

BIG = "big.Q4_K_M.gguf"


@pytest.fixture
def panel(qtbot: QtBot) -> SettingsPanel:
    widget = SettingsPanel(SettingsStore())
    qtbot.addWidget(widget)
    widget.model.set_model(BIG)  # the model on duty
    return widget


def test_an_edit_with_a_model_on_duty_is_that_models_own_and_its_load_uses_it(
    panel: SettingsPanel, qtbot: QtBot
) -> None:
    with qtbot.waitSignal(panel.store.saveRequested):
        panel.set_field_text("n_ctx", "8192")
    store = panel.store
    assert store.model_settings(BIG).load_config(Path(BIG)).n_ctx == 8192
    assert store.model_settings("other.gguf") == ModelSettings(), "a model without its own uses the defaults"
    assert store.settings.model == ModelSettings()
    assert panel.model.rows["n_ctx"].label.font().bold(), "the model's own settings are marked"
    assert not panel.model.rows["n_threads"].label.font().bold()
    assert "1 load settings of its own" in panel.model.own_note.text()


def test_every_load_option_is_kept_per_model(panel: SettingsPanel, qtbot: QtBot) -> None:
    flash = panel.model.rows["flash_attn"].editor
    assert isinstance(flash, QCheckBox)
    flash.click()
    panel.set_field_text("rope_freq_base", "20000")
    own = panel.store.settings.model_overrides[BIG]
    assert own == {"flash_attn": True, "rope_freq_base": 20000.0}


def test_the_defaults_scope_changes_every_model_without_its_own_and_leaves_a_models_own_alone(
    panel: SettingsPanel,
) -> None:
    panel.set_field_text("n_ctx", "8192")
    panel.model.scope.setCurrentIndex(panel.model.scope.findData(""))
    panel.model.scope.activated.emit(panel.model.scope.currentIndex())
    assert panel.model.model_key() is None
    assert panel.model.rows["n_ctx"].editor.text() == "4096"  # the defaults are shown
    panel.set_field_text("n_ctx", "2048")
    assert panel.store.settings.model.n_ctx == 2048
    assert panel.store.model_settings("other.gguf").n_ctx == 2048
    assert panel.store.model_settings(BIG).n_ctx == 8192


def test_a_value_set_back_to_the_default_stops_being_the_models_own(panel: SettingsPanel) -> None:
    panel.set_field_text("n_ctx", "8192")
    panel.set_field_text("n_ctx", "4096")
    assert BIG not in panel.store.settings.model_overrides
    assert panel.model.defaults_button.isHidden()


def test_use_the_defaults_forgets_the_models_own_and_offers_a_reload(panel: SettingsPanel, qtbot: QtBot) -> None:
    panel.set_field_text("n_ctx", "8192")
    assert not panel.model.defaults_button.isHidden()
    with qtbot.waitSignal(panel.store.saveRequested):
        panel.model.defaults_button.click()
    assert panel.store.model_settings(BIG) == ModelSettings()
    assert panel.model.rows["n_ctx"].editor.text() == "4096"
    assert not panel.model.reload_button.isHidden()


def test_a_models_own_settings_read_from_the_file_are_shown_when_it_is_on_duty(qtbot: QtBot) -> None:
    settings = Settings(model_overrides={BIG: {"n_ctx": 16384, "type_k": "q8_0"}})
    panel = SettingsPanel(SettingsStore(LoadedSettings(settings)))
    qtbot.addWidget(panel)
    assert panel.model.rows["n_ctx"].editor.text() == "4096"  # no model on duty: the defaults
    panel.model.set_model(BIG)
    assert panel.model.rows["n_ctx"].editor.text() == "16384"
    assert panel.model.rows["type_k"].label.font().bold()


def test_each_load_setting_stands_under_its_name_so_its_explanation_has_the_panels_width(
    panel: SettingsPanel, qtbot: QtBot
) -> None:
    panel.resize(340, 700)
    panel.show()
    qtbot.waitExposed(panel)
    for name in ("n_ctx", "n_threads", "chat_template"):
        row = panel.model.rows[name]
        assert row.box.x() <= row.label.x() and row.box.y() > row.label.y(), name
