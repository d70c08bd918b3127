"""A model's chat template of its own, from its load settings: "Your own (Jinja)…" or "Edit the template…"
opens the editor; a family's text is a start, Try shows the sample conversation's prompt, and Save keeps only
a template that renders it (one that fails is refused with the error's line, and nothing is saved)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from app.core.inference.template_choice import BUILT_IN, CUSTOM
from app.ui.chat.load_settings_dialog import LoadSettingsDialog
from app.ui.chat.model_settings import ModelSettingsBox
from app.ui.chat.template_editor import TemplateEditor
from app.ui.settings.store import SettingsStore

MODEL = Path("/models/gemma-3-270m.gguf")
OWN = "{% for message in messages %}<{{ message['role'] }}>{{ message['content'] }}\n{% endfor %}"


def settings_of_the_model(qtbot: QtBot) -> LoadSettingsDialog:
    dialog = LoadSettingsDialog(SettingsStore(), MODEL, [], loaded=False)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def choose_your_own(box: ModelSettingsBox) -> TemplateEditor:
    choices = box.rows["chat_template"].editor
    assert isinstance(choices, QComboBox)
    choices.setCurrentIndex(choices.findData(CUSTOM))
    choices.activated.emit(choices.currentIndex())
    assert box.template_editor is not None
    return box.template_editor


def test_choosing_your_own_opens_the_editor_and_saves_nothing_until_it_is_saved(qtbot: QtBot) -> None:
    dialog = settings_of_the_model(qtbot)
    box = dialog.box
    editor = choose_your_own(box)
    assert editor.isVisible() and "gemma-3-270m.gguf" in editor.windowTitle()
    assert box.store.settings.model_overrides == {}


def test_a_family_is_a_start_and_try_shows_the_sample_conversations_prompt(qtbot: QtBot) -> None:
    dialog = settings_of_the_model(qtbot)
    editor = choose_your_own(dialog.box)
    editor.family.setCurrentIndex(editor.family.findData("gemma"))
    editor.family.activated.emit(editor.family.currentIndex())
    assert editor.text.toPlainText() == BUILT_IN["gemma"]
    assert "<start_of_turn>user\nWhat is 1 + 1?<end_of_turn>" in editor.preview.toPlainText()


def test_a_template_that_renders_is_saved_as_the_models_own(qtbot: QtBot) -> None:
    dialog = settings_of_the_model(qtbot)
    box = dialog.box
    editor = choose_your_own(box)
    editor.text.setPlainText(OWN)
    editor.save()
    assert box.store.settings.model_overrides == {MODEL.name: {"chat_template": CUSTOM, "chat_template_text": OWN}}
    choices = box.rows["chat_template"].editor
    assert isinstance(choices, QComboBox) and choices.currentData() == CUSTOM
    assert box.template_editor is None, "the editor closed"


def test_a_template_that_fails_is_refused_with_its_line_and_nothing_is_saved(qtbot: QtBot) -> None:
    dialog = settings_of_the_model(qtbot)
    box = dialog.box
    editor = choose_your_own(box)
    editor.text.setPlainText("{% for message in messages %}\n{{ message['content'] | shout }}{% endfor %}")
    editor.save()
    assert "line 2" in editor.verdict.text() and "No filter named 'shout'" in editor.verdict.text()
    assert editor.isVisible(), "the template stays in the editor to be mended"
    assert box.store.settings.model_overrides == {}


def test_cancel_leaves_the_saved_choice_shown(qtbot: QtBot) -> None:
    dialog = settings_of_the_model(qtbot)
    box = dialog.box
    editor = choose_your_own(box)
    editor.reject()
    choices = box.rows["chat_template"].editor
    assert isinstance(choices, QComboBox) and choices.currentData() == "model"


def test_edit_the_template_opens_the_saved_one_again(qtbot: QtBot) -> None:
    dialog = settings_of_the_model(qtbot)
    box = dialog.box
    box.store.set_model({"chat_template": CUSTOM, "chat_template_text": OWN}, MODEL.name)
    box.edit_template_button.click()
    assert box.template_editor is not None and box.template_editor.text.toPlainText() == OWN


def test_for_the_loaded_model_the_editor_starts_from_the_template_it_was_loaded_with(qtbot: QtBot) -> None:
    dialog = LoadSettingsDialog(SettingsStore(), MODEL, [], loaded=True, template_in_use=BUILT_IN["gemma"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.box.edit_template_button.click()
    assert dialog.box.template_editor is not None
    assert dialog.box.template_editor.text.toPlainText() == BUILT_IN["gemma"]
