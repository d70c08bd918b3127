"""The chat's thinking switch, effort and budget in the settings panel: shown only where the loaded model
reasons, each where its template allows it, and applied to the chat on show."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox
from pytestqt.qtbot import QtBot

from app.core.settings import ChatSettings
from app.core.types.load import LoadConfig, LoadReport
from app.ui.chat.settings_panel import SettingsPanel
from app.ui.settings.store import SettingsStore


@pytest.fixture
def panel(qtbot: QtBot) -> SettingsPanel:
    widget = SettingsPanel(SettingsStore())
    qtbot.addWidget(widget)
    return widget


def loaded(switch: str) -> LoadReport:
    return LoadReport(
        LoadConfig(Path("model.gguf")), reasoning_family="think" if switch else "", thinking_switch=switch
    )


def shown(panel: SettingsPanel) -> set[str]:
    rows = panel.sampling.rows
    return {name for name in ("thinking", "reasoning_effort", "reasoning_budget") if not rows[name].box.isHidden()}


def test_a_model_without_reasoning_shows_neither_control(panel: SettingsPanel) -> None:
    assert shown(panel) == set()  # no model yet
    panel.sampling.show_thinking(loaded(""))
    assert shown(panel) == set()


@pytest.mark.parametrize(
    ("switch", "fields"),
    [
        ("template", {"thinking", "reasoning_budget"}),
        ("prefill", {"thinking", "reasoning_budget"}),
        ("effort", {"reasoning_effort", "reasoning_budget"}),
    ],
)
def test_a_thinking_model_shows_the_controls_its_template_allows(
    panel: SettingsPanel, switch: str, fields: set[str]
) -> None:
    panel.sampling.show_thinking(loaded(switch))
    assert shown(panel) == fields
    panel.sampling.show_thinking(None)  # the model unloaded
    assert shown(panel) == set()


def test_switching_thinking_off_and_choosing_an_effort_apply_to_this_chat(panel: SettingsPanel, qtbot: QtBot) -> None:
    panel.sampling.show_thinking(loaded("template"))
    box = panel.sampling.rows["thinking"].editor
    assert isinstance(box, QCheckBox) and box.isChecked()
    with qtbot.waitSignal(panel.store.chatEdited) as edited:
        box.click()
    assert edited.args[0] == ChatSettings(sampling={"thinking": False})
    effort = panel.sampling.rows["reasoning_effort"].editor
    assert isinstance(effort, QComboBox) and effort.currentData() == "medium"
    with qtbot.waitSignal(panel.store.chatEdited) as edited:
        effort.setCurrentIndex(effort.findData("high"))
        effort.activated.emit(effort.currentIndex())
    assert edited.args[0] == ChatSettings(sampling={"thinking": False, "reasoning_effort": "high"})
    panel.set_field_text("reasoning_budget", "256")
    assert panel.store.effective().sampling.reasoning_budget == 256
