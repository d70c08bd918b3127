"""The sampling part of the settings panel: presets, the decoding mode and how each token is chosen,
for the chat on show. It follows the settings store's sampling section only."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.inference.sampling import (
    PRESETS,
    SAMPLING_FIELDS,
    THINKING_FIELDS,
    FieldSpec,
    InvalidSetting,
    SamplingParams,
    describe_value,
)
from app.core.reasoning.switch import ThinkingSwitch
from app.core.settings import ChatSettings
from app.core.types.load import LoadReport
from app.ui.chat.decoding_mode import DecodingModeBox
from app.ui.chat.setting_rows import SettingRow, TextBox
from app.ui.settings.store import SettingsStore
from app.ui.widgets.ask_text import ask_text
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone
from app.ui.widgets.wrapping_label import WrappingLabel


class SamplingSettings(QWidget):
    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.rows: dict[str, SettingRow] = {}
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self._build_presets())
        self.decoding_box = DecodingModeBox(self)  # sampling, greedy or beam search
        self.decoding_box.edited.connect(lambda decoding: self._edit_chat(replace(store.chat, decoding=decoding)))
        column.addWidget(self.decoding_box)
        column.addWidget(self._build_fields())
        store.samplingChanged.connect(self.show_settings)
        self.show_settings()

    def _build_presets(self) -> QGroupBox:
        group = QGroupBox(self.tr("Preset"), self)
        column = QVBoxLayout(group)
        row = QHBoxLayout()
        self.preset_box = QComboBox(group)
        self.preset_box.setAccessibleName(self.tr("Preset"))
        self.preset_box.setToolTip(
            self.tr(
                "Precise: focused and repeatable · Balanced: the defaults · Creative: varied. "
                "Choosing one applies it; “Custom” means the values were changed by hand."
            )
        )
        self.save_preset_button = QPushButton(self.tr("Save as…"), group)
        self.save_preset_button.setToolTip(self.tr("Save this chat's sampling settings as a preset of your own"))
        self.delete_preset_button = QPushButton(self.tr("Delete"), group)
        self.delete_preset_button.setToolTip(self.tr("Delete this preset of your own"))
        column.addWidget(self.preset_box)
        row.addStretch(1)
        for button in (self.save_preset_button, self.delete_preset_button):
            row.addWidget(button)
        column.addLayout(row)
        self._preset_name = "Balanced"  # the preset last chosen: shown while the values still match it
        self.preset_box.activated.connect(self._preset_chosen)
        self.save_preset_button.clicked.connect(self._ask_and_save_preset)
        self.delete_preset_button.clicked.connect(lambda: self.delete_preset(self.preset_name()))
        return group

    def _build_fields(self) -> QGroupBox:
        group = QGroupBox(self.tr("Sampling — this chat"), self)
        form = QFormLayout(group)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.scope_note = WrappingLabel(self.tr("Fields in bold differ from the defaults for new chats."), group)
        set_tone(self.scope_note, Tone.NOTE)
        form.addRow(self.scope_note)
        for name, spec in SAMPLING_FIELDS.items():
            if name == "seed":
                row = self._seed_row(spec, group)
            elif name == "stop":
                editor = TextBox(group)
                editor.setPlaceholderText(self.tr("One stop string per line"))
                editor.setFixedHeight(54)
                editor.editingFinished.connect(lambda n=name: self.edited(n))
                row = SettingRow(spec, editor, group)
            elif spec.kind == "bool":
                box = QCheckBox(group)
                box.clicked.connect(lambda _checked, n=name: self.edited(n))
                row = SettingRow(spec, box, group)
            elif spec.kind == "choice":
                choices = QComboBox(group)
                labels = {"low": self.tr("Low"), "medium": self.tr("Medium"), "high": self.tr("High")}
                for value in spec.choices:
                    choices.addItem(labels.get(value, value), value)
                choices.activated.connect(lambda _index, n=name: self.edited(n))
                row = SettingRow(spec, choices, group)
            else:
                line = QLineEdit(group)
                line.editingFinished.connect(lambda n=name: self.edited(n))
                row = SettingRow(spec, line, group)
            self.rows[name] = row
            form.addRow(row.label, row.box)
        self.show_thinking(None)
        return group

    def show_thinking(self, report: LoadReport | None) -> None:
        """Show the thinking fields the loaded model has (`report`'s switch): none for a model that does not
        reason, the on/off switch where it can be switched off, the effort where it has levels."""
        switch = report.thinking_switch if report is not None else ""
        shown = {
            "thinking": switch in (ThinkingSwitch.TEMPLATE, ThinkingSwitch.PREFILL),
            "reasoning_effort": switch == ThinkingSwitch.EFFORT,
            "reasoning_budget": bool(switch),
        }
        for name in THINKING_FIELDS:
            self.rows[name].label.setVisible(shown[name])
            self.rows[name].box.setVisible(shown[name])

    def _seed_row(self, spec: FieldSpec, parent: QWidget) -> SettingRow:
        editor = QWidget(parent)
        row = QHBoxLayout(editor)
        row.setContentsMargins(0, 0, 0, 0)
        self.random_seed = QCheckBox(self.tr("Random"), editor)
        self.seed_edit = QLineEdit(editor)
        self.seed_edit.setAccessibleName(word(spec.label))
        row.addWidget(self.random_seed)
        row.addWidget(self.seed_edit, 1)
        self.random_seed.toggled.connect(self._seed_mode_changed)
        self.seed_edit.editingFinished.connect(lambda: self.edited("seed"))
        return SettingRow(spec, editor, parent)

    # ---- state in ------------------------------------------------------------------

    def show_settings(self) -> None:
        """Show the chat on show's sampling, its own values in bold, and the preset they match."""
        used, chat = self.store.effective().sampling, self.store.chat
        defaults = self.store.settings.sampling
        for name, row in self.rows.items():
            row.show_error("")
            self._put(name, row, getattr(used, name))
            row.set_changed(name in chat.sampling, describe_value(getattr(defaults, name)))
        self.decoding_box.show_settings(chat.decoding)
        self._fill_presets()

    def _put(self, name: str, row: SettingRow, value: Any) -> None:
        if name == "seed":
            self.random_seed.blockSignals(True)
            self.random_seed.setChecked(value is None)
            self.random_seed.blockSignals(False)
            self.seed_edit.setEnabled(value is not None)
            self.seed_edit.setText("" if value is None else str(value))
        elif name == "stop":
            assert isinstance(row.editor, TextBox)
            row.editor.setPlainText("\n".join(value))
        elif isinstance(row.editor, QCheckBox):
            row.editor.setChecked(bool(value))
        elif isinstance(row.editor, QComboBox):
            row.editor.setCurrentIndex(row.editor.findData(value))
        else:
            assert isinstance(row.editor, QLineEdit)
            row.editor.setText(describe_value(value))

    def _fill_presets(self) -> None:
        """The presets, with the one whose values this chat uses chosen; "Custom" when none matches."""
        names = [*PRESETS, *sorted(self.store.settings.presets)]
        used = self.store.effective().sampling
        matching = [name for name in names if self._matches(name, used)]
        chosen = self._preset_name if self._preset_name in matching else (matching[0] if matching else None)
        self.preset_box.blockSignals(True)
        self.preset_box.clear()
        for name in names:
            self.preset_box.addItem(word(name) if name in PRESETS else name, name)
        if chosen is None:
            self.preset_box.addItem(self.tr("Custom"), None)
            self.preset_box.setCurrentIndex(self.preset_box.count() - 1)
        else:
            self.preset_box.setCurrentIndex(names.index(chosen))
        self.preset_box.blockSignals(False)
        self.delete_preset_button.setEnabled(chosen in self.store.settings.presets)

    def _matches(self, name: str, used: SamplingParams) -> bool:
        """This chat's sampling has every value the preset sets."""
        try:
            return used.with_values(self.store.settings.preset_values(name)) == used
        except InvalidSetting:
            return False

    def preset_name(self) -> str:
        """The preset on show; "" while the values match none ("Custom")."""
        name = self.preset_box.currentData()
        return name if isinstance(name, str) else ""

    def _preset_chosen(self, index: int) -> None:
        name = self.preset_box.itemData(index)
        if isinstance(name, str):
            self.apply_preset(name)

    # ---- edits ---------------------------------------------------------------------

    def type_text(self, name: str, text: str) -> None:
        """Type `text` into a field and finish editing (what a user does)."""
        row = self.rows[name]
        if name == "seed":
            self.seed_edit.setText(text)
        elif isinstance(row.editor, QPlainTextEdit):
            row.editor.setPlainText(text)
        else:
            assert isinstance(row.editor, QLineEdit)
            row.editor.setText(text)
        self.edited(name)

    def edited(self, name: str) -> None:
        """A field's editing ended: its value applies to the chat on show, or is refused with the reason."""
        row = self.rows[name]
        try:
            chat = self.store.chat.with_sampling({name: self._read(name, row)}, self.store.settings.sampling)
        except InvalidSetting as error:
            self._put(name, row, getattr(self.store.effective().sampling, name))
            row.show_error(word(error.message) + " " + self.tr("The previous value is kept."))
            return
        row.show_error("")
        self._edit_chat(chat)

    def _read(self, name: str, row: SettingRow) -> Any:
        if name == "seed":
            return None if self.random_seed.isChecked() else self.seed_edit.text().strip()
        if name == "stop":
            assert isinstance(row.editor, QPlainTextEdit)
            return [line for line in row.editor.toPlainText().split("\n") if line]
        if isinstance(row.editor, QCheckBox):
            return row.editor.isChecked()
        if isinstance(row.editor, QComboBox):
            return row.editor.currentData()
        assert isinstance(row.editor, QLineEdit)
        return row.editor.text()

    def _seed_mode_changed(self, random: bool) -> None:
        self.seed_edit.setEnabled(not random)
        if not random and not self.seed_edit.text().strip():
            self.seed_edit.setText("0")
        self.edited("seed")

    def _edit_chat(self, chat: ChatSettings) -> None:
        self.store.edit_chat(chat)  # the store's samplingChanged shows it, when anything changed
        self._fill_presets()  # the preset just chosen is named even when the values were already its own

    def apply_preset(self, name: str) -> None:
        try:
            values = self.store.settings.preset_values(name)
        except InvalidSetting as error:
            self.rows["temperature"].show_error(word(error.message))
            return
        self._preset_name = name
        self._edit_chat(self.store.chat.with_sampling(values, self.store.settings.sampling))

    def save_preset(self, name: str) -> str:
        """Save this chat's sampling settings as a preset; returns "" or why the name was refused."""
        try:
            settings = self.store.settings.with_preset(name, self.store.effective().sampling)
        except InvalidSetting as error:
            return word(error.message)
        self._preset_name = " ".join(name.split())
        self.store.set_defaults(settings)
        return ""

    def delete_preset(self, name: str) -> None:
        if name in self.store.settings.presets:
            self.store.set_defaults(self.store.settings.without_preset(name))

    def ask_preset_name(self) -> str:
        return ask_text(self, self.tr("Save preset"), self.tr("Name of the preset:")) or ""

    def _ask_and_save_preset(self) -> None:
        name = self.ask_preset_name()
        while name:
            problem = self.save_preset(name)
            if not problem:
                return
            QMessageBox.warning(self, self.tr("Save preset"), problem)
            name = self.ask_preset_name()
