"""The settings panel: bounded fields with explanations, refusals with a message, presets, defaults."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QCheckBox, QComboBox
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import WindowPolicy
from app.core.inference.chat_format import default_system_prompt
from app.core.inference.engine import Engine
from app.core.inference.sampling import PRESETS, SAMPLING_FIELDS, SamplingParams
from app.core.inference.template_choice import CHATML as CHATML_TEMPLATE
from app.core.settings import MODEL_FIELDS, ChatSettings, LoadedSettings, ModelSettings, Settings
from app.ui.chat.setting_rows import SettingRow
from app.ui.chat.settings_panel import SettingsPanel
from app.ui.settings.store import SettingsStore


@pytest.fixture
def panel(qtbot: QtBot) -> SettingsPanel:
    widget = SettingsPanel(SettingsStore())
    qtbot.addWidget(widget)
    return widget


def used(panel: SettingsPanel) -> SamplingParams:
    return panel.store.effective().sampling


def rows(panel: SettingsPanel) -> dict[str, SettingRow]:
    return {**panel.sampling.rows, **panel.model.rows}


def test_every_sampling_field_is_shown_with_its_explanation(panel: SettingsPanel) -> None:
    for name, spec in SAMPLING_FIELDS.items():
        field = rows(panel)[name]
        assert field.label.text() == spec.label
        assert field.explanation.text() == spec.explanation
    assert rows(panel)["temperature"].editor.text() == "0.7"


def test_a_valid_value_applies_to_this_chat_and_marks_the_field(panel: SettingsPanel, qtbot: QtBot) -> None:
    with qtbot.waitSignal(panel.store.chatEdited) as edited:
        panel.set_field_text("temperature", "1.3")
    assert edited.args[0] == ChatSettings(sampling={"temperature": 1.3})
    assert rows(panel)["temperature"].label.font().bold()
    assert not rows(panel)["top_p"].label.font().bold()
    assert "0.7" in rows(panel)["temperature"].label.toolTip()


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("temperature", "5", "Temperature must be between 0 and 2, not 5."),
        ("top_k", "2.5", "Top-k must be a whole number"),
        ("max_tokens", "lots", "Max tokens must be a number"),
        ("seed", "-3", "Seed must be between 0 and"),
        ("stop", "x" * 120, "longer than 100 characters"),
    ],
)
def test_an_invalid_value_is_refused_with_a_message_and_the_old_value_stays(
    panel: SettingsPanel, qtbot: QtBot, name: str, text: str, message: str
) -> None:
    if name == "seed":
        panel.sampling.random_seed.setChecked(False)
    before = used(panel)
    with qtbot.assertNotEmitted(panel.store.chatEdited):
        panel.set_field_text(name, text)
    assert message in panel.field_error(name)
    assert "previous value is kept" in panel.field_error(name)
    assert used(panel) == before


def test_a_fixed_seed_and_stop_strings_are_read_from_their_editors(panel: SettingsPanel) -> None:
    panel.sampling.random_seed.setChecked(False)
    panel.set_field_text("seed", "1234")
    panel.set_field_text("stop", "User:\n\n###")
    assert (used(panel).seed, used(panel).stop) == (1234, ("User:", "###"))
    panel.sampling.random_seed.setChecked(True)
    assert used(panel).seed is None


def test_presets_set_how_tokens_are_chosen(panel: SettingsPanel) -> None:
    panel.set_field_text("max_tokens", "99")
    panel.sampling.apply_preset("Creative")
    assert used(panel).temperature == PRESETS["Creative"]["temperature"]
    assert used(panel).max_tokens == 99
    panel.sampling.apply_preset("Balanced")
    assert panel.store.chat.sampling == {"max_tokens": 99}, "values equal to the defaults are not overrides"


def test_a_user_preset_is_saved_offered_applied_and_deleted(panel: SettingsPanel, qtbot: QtBot) -> None:
    panel.set_field_text("temperature", "0.33")
    with qtbot.waitSignal(panel.store.saveRequested) as saved:
        assert panel.sampling.save_preset("Careful") == ""
    assert saved.args[0].presets["Careful"].temperature == 0.33
    names = [panel.sampling.preset_box.itemText(i) for i in range(panel.sampling.preset_box.count())]
    assert names == [*PRESETS, "Careful"]
    assert panel.sampling.delete_preset_button.isEnabled()
    panel.use_defaults()
    panel.sampling.apply_preset("Careful")
    assert used(panel).temperature == 0.33
    assert "built-in" in panel.sampling.save_preset("Precise")
    panel.sampling.delete_preset("Careful")
    assert "Careful" not in panel.store.settings.presets


def test_use_defaults_forgets_this_chats_own_settings(panel: SettingsPanel) -> None:
    panel.set_field_text("top_k", "5")
    panel.prompt.system_prompt.setPlainText("Be a pirate.")
    panel.prompt.system_prompt.editingFinished.emit()
    assert panel.store.chat.system_prompt == "Be a pirate."
    assert panel.prompt.system_prompt_label.font().bold()
    panel.use_defaults()
    assert panel.store.chat == ChatSettings()
    assert panel.prompt.system_prompt.toPlainText() == ""


def test_save_as_defaults_makes_this_chats_settings_the_defaults(panel: SettingsPanel, qtbot: QtBot) -> None:
    panel.set_field_text("top_k", "5")
    panel.prompt.set_policy(WindowPolicy.TRUNCATE_MIDDLE)
    panel.prompt.system_prompt.setPlainText("Answer briefly.")
    panel.prompt.system_prompt.editingFinished.emit()
    with qtbot.waitSignal(panel.store.saveRequested) as saved:
        panel.save_as_defaults()
    defaults: Settings = saved.args[0]
    assert defaults.sampling.top_k == 5
    assert defaults.chat.system_prompt == "Answer briefly."
    assert defaults.chat.window_policy is WindowPolicy.TRUNCATE_MIDDLE
    assert panel.store.chat == ChatSettings()


def test_restore_defaults_brings_back_glassboxs_own_and_keeps_presets_and_model(panel: SettingsPanel) -> None:
    panel.store.set_defaults(
        Settings(sampling=SamplingParams(temperature=1.9), model=ModelSettings(n_ctx=1024)).with_preset(
            "Mine", SamplingParams()
        )
    )
    panel.restore_defaults()
    assert panel.store.settings.sampling == SamplingParams()
    assert panel.store.settings.model.n_ctx == 1024 and "Mine" in panel.store.settings.presets


def test_the_window_policy_is_chosen_per_chat_with_its_explanation(panel: SettingsPanel) -> None:
    panel.prompt.set_policy(WindowPolicy.STOP_AT_LIMIT)
    assert panel.store.chat.window_policy is WindowPolicy.STOP_AT_LIMIT
    assert "refused" in panel.prompt.policy_explanation.text()
    panel.prompt.set_policy(WindowPolicy.ROLLING)
    assert panel.store.chat.window_policy is None, "the default policy is no override"


def test_model_settings_are_checked_and_offer_a_reload(panel: SettingsPanel, qtbot: QtBot) -> None:
    panel.set_field_text("n_ctx", "100")
    assert "Context length must be between 256" in panel.field_error("n_ctx")
    assert panel.store.settings.model.n_ctx == 4096
    with qtbot.waitSignal(panel.store.saveRequested):
        panel.set_field_text("n_ctx", "2048")
    assert panel.store.settings.model.n_ctx == 2048
    assert not panel.model.reload_button.isHidden()
    with qtbot.waitSignal(panel.model.reloadRequested):
        panel.model.reload_button.click()


def test_every_load_option_is_shown_with_its_explanation_and_the_saved_value(qtbot: QtBot) -> None:
    model = ModelSettings(flash_attn=True, type_v="q8_0", speculative="on", rope_freq_scale=0.5)
    panel = SettingsPanel(SettingsStore(LoadedSettings(Settings(model=model))))
    qtbot.addWidget(panel)
    for name, spec in MODEL_FIELDS.items():
        assert rows(panel)[name].explanation.text() == spec.explanation
    fields = rows(panel)
    assert isinstance(fields["flash_attn"].editor, QCheckBox) and fields["flash_attn"].editor.isChecked()
    assert isinstance(fields["type_v"].editor, QComboBox) and fields["type_v"].editor.currentText() == "q8_0"
    assert isinstance(fields["speculative"].editor, QComboBox) and fields["speculative"].editor.currentText() == "On"
    assert fields["rope_freq_scale"].editor.text() == "0.5"


def test_a_load_option_the_user_changes_is_saved_and_offers_a_reload(panel: SettingsPanel, qtbot: QtBot) -> None:
    flash = rows(panel)["flash_attn"].editor
    assert isinstance(flash, QCheckBox)
    with qtbot.waitSignal(panel.store.saveRequested):
        flash.click()
    assert panel.store.settings.model.flash_attn and not panel.model.reload_button.isHidden()
    cache = rows(panel)["type_k"].editor
    assert isinstance(cache, QComboBox)
    cache.setCurrentIndex(cache.findData("q4_0"))
    with qtbot.waitSignal(panel.store.saveRequested):
        cache.activated.emit(cache.currentIndex())
    assert panel.store.settings.model.type_k == "q4_0"


def test_a_load_option_that_needs_another_is_refused_with_the_reason(panel: SettingsPanel) -> None:
    cache = rows(panel)["type_v"].editor
    assert isinstance(cache, QComboBox)
    cache.setCurrentIndex(cache.findData("q8_0"))
    cache.activated.emit(cache.currentIndex())
    assert "needs flash attention" in panel.field_error("type_v")
    assert panel.store.settings.model.type_v == "f16" and cache.currentData() == "f16"  # the previous value is back


def test_a_too_long_system_prompt_is_refused(panel: SettingsPanel) -> None:
    panel.prompt.system_prompt.setPlainText("x" * 20_001)
    panel.prompt.system_prompt.editingFinished.emit()
    assert panel.store.chat.system_prompt is None
    assert "at most 20,000 characters" in panel.prompt.system_prompt_error.text()


def test_tab_leaves_the_system_prompt_and_whitespace_is_no_system_prompt(panel: SettingsPanel, qtbot: QtBot) -> None:
    panel.show()
    panel.prompt.system_prompt.setFocus()
    qtbot.waitUntil(panel.prompt.system_prompt.hasFocus)
    qtbot.keyClicks(panel.prompt.system_prompt, "   ")
    qtbot.keyClick(panel.prompt.system_prompt, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: not panel.prompt.system_prompt.hasFocus())
    assert "\t" not in panel.prompt.system_prompt.toPlainText()
    assert panel.store.effective().system_prompt == ""


def test_the_preset_shows_custom_once_a_value_is_changed_by_hand_and_its_name_when_they_match_again(
    panel: SettingsPanel,
) -> None:
    presets = panel.sampling.preset_box
    assert presets.currentText() == "Balanced"  # Glassbox's defaults are the Balanced preset
    panel.set_field_text("temperature", "0.9")
    assert presets.currentText() == "Custom" and panel.sampling.preset_name() == ""
    panel.set_field_text("temperature", "0.7")
    assert presets.currentText() == "Balanced"

    creative = presets.findText("Creative")
    presets.setCurrentIndex(creative)
    presets.activated.emit(creative)  # choosing a preset applies it: no separate Apply
    assert used(panel).temperature == PRESETS["Creative"]["temperature"]
    assert presets.currentText() == "Creative"
    panel.set_field_text("top_k", "7")
    assert presets.currentText() == "Custom"
    assert presets.findText("Custom") == presets.count() - 1  # offered only while it is so
    panel.set_field_text("top_k", str(PRESETS["Creative"]["top_k"]))
    assert presets.currentText() == "Creative" and presets.findText("Custom") == -1
    panel.set_field_text("max_tokens", "99")  # a value no built-in preset sets keeps the preset's name
    assert presets.currentText() == "Creative"


def test_one_reset_and_one_save_as_default_for_new_chats(panel: SettingsPanel, qtbot: QtBot) -> None:
    texts = [button.text() for button in panel.findChildren(QAbstractButton) if button.isVisibleTo(panel)]
    assert texts.count("Reset to defaults") == 1 and texts.count("Save as default for new chats") == 1
    assert not {"Use defaults", "Save as defaults", "Restore defaults", "Apply"} & set(texts)

    panel.set_field_text("top_k", "5")
    panel.reset_button.click()  # this chat follows the defaults again
    assert panel.store.chat == ChatSettings()

    panel.set_field_text("top_k", "6")
    with qtbot.waitSignal(panel.store.saveRequested) as saved:
        panel.save_defaults_button.click()
    assert saved.args[0].sampling.top_k == 6 and panel.store.chat == ChatSettings()

    asked: list[bool] = []
    panel.confirm_restore = lambda: asked.append(True) or True  # type: ignore[method-assign]
    panel.factory_action.trigger()  # Glassbox's own defaults: behind the Reset button's arrow
    assert asked == [True] and panel.store.settings.sampling == SamplingParams()


def test_the_models_own_default_system_prompt_shows_in_the_empty_box(panel: SettingsPanel, engine: Engine) -> None:
    assert "if it has one" in panel.prompt.system_prompt.placeholderText()  # no model loaded: not known yet
    template = engine.llama.metadata["tokenizer.chat_template"]
    panel.prompt.set_model_default_prompt(default_system_prompt(template))
    hint = panel.prompt.system_prompt.placeholderText()
    assert "the model's own default system prompt" in hint
    assert "You are a helpful AI assistant named SmolLM, trained by Hugging Face" in hint
    assert panel.prompt.system_prompt.toPlainText() == ""  # shown, not typed in: the chat's prompt stays empty
    assert panel.store.effective().system_prompt == ""
    panel.prompt.set_model_default_prompt(default_system_prompt(CHATML_TEMPLATE))
    assert "brings none of its own" in panel.prompt.system_prompt.placeholderText()


def test_settings_that_apply_on_reload_offer_reload_now_until_the_model_is_loaded_again(
    panel: SettingsPanel, qtbot: QtBot
) -> None:
    panel.show()
    assert not panel.model.reload_button.isVisible()
    panel.set_field_text("n_ctx", "2048")
    assert panel.model.reload_button.isVisible() and panel.model.reload_button.text() == "Reload now"
    assert "when the model is loaded again" in panel.model.reload_note.text()
    with qtbot.waitSignal(panel.model.reloadRequested):
        panel.model.reload_button.click()
    panel.model.set_reload_possible(False)  # the load runs (or no model is on duty): nothing to reload now
    assert not panel.model.reload_button.isEnabled()
    panel.model.model_loaded()
    panel.model.set_reload_possible(True)
    assert not panel.model.reload_button.isVisible()
