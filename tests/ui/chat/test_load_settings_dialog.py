"""One model's load settings in a dialog (opened from the Models window's Library and the model picker):
the settings panel's model fields pinned to that model, GPU layers among them, each edit saved as its own,
"Use the defaults" to drop them, and a plain word on when they apply (Reload now when it is loaded)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit
from pytestqt.qtbot import QtBot

from app.core.settings import LOAD_FIELDS, ModelSettings
from app.ui.chat.load_settings_dialog import LoadSettingsDialog
from app.ui.settings.store import SettingsStore
from tests.helpers.wheel import turn_wheel_down

MODEL = Path("/models/qwen3-4b.Q4_K_M.gguf")
OTHER = Path("/models/gemma-3-1b.gguf")


def open_dialog(qtbot: QtBot, loaded: bool, store: SettingsStore | None = None) -> LoadSettingsDialog:
    dialog = LoadSettingsDialog(store or SettingsStore(), MODEL, [("Qwen3 4B", MODEL), ("Gemma", OTHER)], loaded)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def type_into(dialog: LoadSettingsDialog, name: str, text: str) -> None:
    dialog.box.type_text(name, text)


def test_it_edits_every_load_setting_gpu_layers_included_for_that_model_only(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    for name in ("n_ctx", "n_gpu_layers", "type_k", "type_v", "flash_attn", "rope_freq_base", "rope_scaling"):
        assert not dialog.box.rows[name].editor.isHidden(), name
    assert set(dialog.box.rows) >= {"draft_model", "chat_template"}
    assert dialog.box.scope.isHidden(), "the dialog is about one model: no choice of scope"
    type_into(dialog, "n_gpu_layers", "12")
    type_into(dialog, "n_ctx", "16384")
    store = dialog.box.store
    assert store.settings.model_overrides == {MODEL.name: {"n_gpu_layers": 12, "n_ctx": 16384}}
    assert store.model_settings(OTHER.name) == ModelSettings(), "another model keeps the defaults"
    assert store.settings.model == ModelSettings()


def test_a_value_out_of_the_declared_bounds_is_refused_with_the_bounds_and_the_old_value_kept(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    spec = LOAD_FIELDS["n_ctx"]
    type_into(dialog, "n_ctx", "100")
    error = dialog.box.rows["n_ctx"].error_text()
    assert f"between {spec.minimum:g} and {spec.maximum:g}" in error
    assert "previous value is kept" in error
    editor = dialog.box.rows["n_ctx"].editor
    assert isinstance(editor, QLineEdit) and editor.text() == "4096"
    assert MODEL.name not in dialog.box.store.settings.model_overrides


def test_flash_attention_and_a_quantized_v_cache_are_saved_together(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    flash = dialog.box.rows["flash_attn"].editor
    v_cache = dialog.box.rows["type_v"].editor
    assert isinstance(flash, QCheckBox) and isinstance(v_cache, QComboBox)
    flash.click()
    v_cache.setCurrentIndex(v_cache.findData("q8_0"))
    v_cache.activated.emit(v_cache.currentIndex())
    assert dialog.box.store.model_settings(MODEL.name).type_v == "q8_0"
    assert dialog.box.store.model_settings(MODEL.name).flash_attn


def test_the_draft_model_is_chosen_from_the_library(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    drafts = dialog.box.rows["draft_model"].editor
    assert isinstance(drafts, QComboBox)
    assert [drafts.itemData(i) for i in range(drafts.count())] == ["", str(MODEL), str(OTHER)]


def test_use_the_defaults_drops_the_models_own_settings(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    type_into(dialog, "n_ctx", "16384")
    assert not dialog.box.defaults_button.isHidden()
    dialog.box.defaults_button.click()
    assert MODEL.name not in dialog.box.store.settings.model_overrides
    editor = dialog.box.rows["n_ctx"].editor
    assert isinstance(editor, QLineEdit) and editor.text() == "4096"
    assert dialog.box.defaults_button.isHidden()


def test_for_a_model_not_loaded_it_says_the_next_load_and_offers_no_reload(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    assert "next load of qwen3-4b.Q4_K_M.gguf" in dialog.note.text()
    type_into(dialog, "n_ctx", "8192")
    assert dialog.box.reload_button.isHidden()


def test_for_the_loaded_model_reload_now_loads_it_again_with_the_settings(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=True)
    assert "is loaded now" in dialog.note.text()
    type_into(dialog, "n_ctx", "8192")
    assert dialog.box.reload_row.isVisible() and dialog.box.reload_button.isVisible()
    with qtbot.waitSignal(dialog.reloadRequested) as reload:
        dialog.box.reload_button.click()
    assert reload.args == [MODEL]


def test_a_change_made_elsewhere_shows_at_once(qtbot: QtBot) -> None:
    store = SettingsStore()
    dialog = open_dialog(qtbot, loaded=False, store=store)
    store.set_model({"n_ctx": 2048}, MODEL.name)  # the GPU panel's Apply, say
    editor = dialog.box.rows["n_ctx"].editor
    assert isinstance(editor, QLineEdit) and editor.text() == "2048"
    assert dialog.box.rows["n_ctx"].label.font().bold()


def test_the_wheel_scrolls_the_dialog_and_changes_no_setting_it_passes_over(qtbot: QtBot) -> None:
    dialog = open_dialog(qtbot, loaded=False)
    speculative = dialog.box.rows["speculative"].editor
    assert isinstance(speculative, QComboBox)
    before = speculative.currentData()
    turn_wheel_down(speculative)
    assert speculative.currentData() == before
    assert dialog.box.store.settings.model_overrides == {}
