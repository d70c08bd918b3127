"""The settings panel: how replies are sampled, the system prompt and context window of this chat,
presets, the defaults for every chat, and how the model is loaded: context length, threads and the
load options (the same saved values the GPU offload panel shows and plans the memory for; its GPU
layers are named here too).

Every field is built from its spec (bounds and a one-line explanation live in
app.core.inference.sampling / app.core.settings). Edits apply to the chat on show; a field in bold
differs from the defaults. A value outside the bounds is refused with a message under the
field and the previous value stays. The panel keeps the state it was given
(`set_state`), edits it, and announces the result; the chat session stores it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.chat.context_window import WindowPolicy
from app.core.inference.sampling import (
    PRESETS,
    SAMPLING_FIELDS,
    FieldSpec,
    InvalidSetting,
    SamplingParams,
    describe_value,
)
from app.core.settings import (
    MODEL_FIELDS,
    ChatDefaults,
    ChatSettings,
    Settings,
    check_system_prompt,
    effective,
)
from app.core.support.formatting import fill
from app.ui.chat.decoding_mode import DecodingModeBox
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone


class _TextBox(QPlainTextEdit):
    """A multi-line text field that, like QLineEdit, says when editing ended (focus left), and that
    Tab leaves (a tab character typed there would silently become part of the prompt)."""

    editingFinished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.editingFinished.emit()


class _Field:
    """One row: label, editor, the one-line explanation, and a message when a value is refused."""

    def __init__(self, spec: FieldSpec, editor: QWidget, parent: QWidget) -> None:
        self.spec = spec
        self.editor = editor
        self.label = QLabel(word(spec.label), parent)
        self.label.setBuddy(editor)
        # the label sits apart from the editor's own box, so a screen reader is told the name directly
        editor.setAccessibleName(self.label.text())
        editor.setAccessibleDescription(self.explanation_text(spec))
        self.explanation = QLabel(word(spec.explanation), parent)
        self.explanation.setWordWrap(True)
        set_tone(self.explanation, Tone.NOTE)
        self.error = QLabel(parent)
        self.error.setWordWrap(True)
        set_tone(self.error, Tone.ERROR)
        self.error.hide()
        self.box = QWidget(parent)
        column = QVBoxLayout(self.box)
        column.setContentsMargins(0, 0, 0, 4)
        column.setSpacing(2)
        column.addWidget(editor)
        column.addWidget(self.explanation)
        column.addWidget(self.error)

    @staticmethod
    def explanation_text(spec: FieldSpec) -> str:
        return word(spec.explanation)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def set_changed(self, changed: bool, default_text: str) -> None:
        font = self.label.font()
        font.setBold(changed)
        self.label.setFont(font)
        self.label.setToolTip(
            fill(
                QCoreApplication.translate("SettingsPanel", "Changed for this chat; the default is {value}"),
                value=default_text,
            )
            if changed
            else ""
        )


class SettingsPanel(QScrollArea):
    chatSettingsEdited = Signal(object)  # ChatSettings of the chat on show
    defaultsEdited = Signal(object)  # Settings: the defaults, presets and model settings
    reloadRequested = Signal()  # load the model again so the model settings apply
    longMemoryToggled = Signal(bool)  # the chat on show: long memory on or off

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes straight to its fields; the panel scrolls to each
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(300)
        self.settings = Settings()
        self.chat = ChatSettings()
        content = QWidget(self)
        self._layout = QVBoxLayout(content)
        self._fields: dict[str, _Field] = {}
        self._build_chat(content)
        self._build_presets(content)
        self.decoding_box = DecodingModeBox(content)  # sampling, greedy or beam search
        self.decoding_box.edited.connect(lambda decoding: self._edit_chat(replace(self.chat, decoding=decoding)))
        self._layout.addWidget(self.decoding_box)
        self._build_sampling(content)
        self._build_buttons(content)
        self._build_model(content)
        self._layout.addStretch(1)
        self.setWidget(content)
        self._show()

    # ---- building ------------------------------------------------------------------

    def _build_presets(self, parent: QWidget) -> None:
        group = QGroupBox(self.tr("Preset"), parent)
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
        self._layout.addWidget(group)

    def _build_sampling(self, parent: QWidget) -> None:
        group = QGroupBox(self.tr("Sampling — this chat"), parent)
        form = QFormLayout(group)
        self.scope_note = QLabel(self.tr("Fields in bold differ from the defaults for new chats."), group)
        set_tone(self.scope_note, Tone.NOTE)
        form.addRow(self.scope_note)
        for name, spec in SAMPLING_FIELDS.items():
            if name == "seed":
                field = self._seed_field(spec, group)
            elif name == "stop":
                editor = _TextBox(group)
                editor.setPlaceholderText(self.tr("One stop string per line"))
                editor.setFixedHeight(54)
                editor.editingFinished.connect(lambda n=name: self._sampling_edited(n))
                field = _Field(spec, editor, group)
            else:
                line = QLineEdit(group)
                line.editingFinished.connect(lambda n=name: self._sampling_edited(n))
                field = _Field(spec, line, group)
            self._fields[name] = field
            form.addRow(field.label, field.box)
        self._layout.addWidget(group)

    def _seed_field(self, spec: FieldSpec, parent: QWidget) -> _Field:
        editor = QWidget(parent)
        row = QHBoxLayout(editor)
        row.setContentsMargins(0, 0, 0, 0)
        self.random_seed = QCheckBox(self.tr("Random"), editor)
        self.seed_edit = QLineEdit(editor)
        self.seed_edit.setAccessibleName(word(spec.label))
        row.addWidget(self.random_seed)
        row.addWidget(self.seed_edit, 1)
        self.random_seed.toggled.connect(self._seed_mode_changed)
        self.seed_edit.editingFinished.connect(lambda: self._sampling_edited("seed"))
        return _Field(spec, editor, parent)

    def _build_chat(self, parent: QWidget) -> None:
        group = QGroupBox(self.tr("System prompt and context — this chat"), parent)
        form = QFormLayout(group)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        self.system_prompt = _TextBox(group)
        self.system_prompt.setAccessibleName(self.tr("System prompt"))
        self.system_prompt.setFixedHeight(90)
        self.system_prompt.editingFinished.connect(self._system_prompt_edited)
        self.system_prompt_note = QLabel(group)
        set_tone(self.system_prompt_note, Tone.NOTE)
        self.system_prompt_error = QLabel(group)
        set_tone(self.system_prompt_error, Tone.ERROR)
        self.system_prompt_error.hide()
        self.default_prompt_button = QPushButton(self.tr("Use the default prompt"), group)
        self.default_prompt_button.clicked.connect(self._use_default_prompt)
        box = QWidget(group)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        note_row = QHBoxLayout()
        note_row.addWidget(self.system_prompt_note, 1)
        note_row.addWidget(self.default_prompt_button)
        column.addWidget(self.system_prompt)
        column.addLayout(note_row)
        column.addWidget(self.system_prompt_error)
        # what the loaded model's chat template puts in when this is empty; None: not known (no model, a server)
        self.model_default_prompt: str | None = None
        self._show_model_default_prompt()
        self.system_prompt_label = QLabel(self.tr("System prompt"), group)
        form.addRow(self.system_prompt_label, box)

        self.policy_box = QComboBox(group)
        self.policy_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.policy_box.setMinimumContentsLength(16)
        for policy, label in self._policy_labels().items():
            self.policy_box.addItem(label, policy.value)
        self.policy_explanation = QLabel(group)
        self.policy_explanation.setWordWrap(True)
        set_tone(self.policy_explanation, Tone.NOTE)
        self.policy_box.activated.connect(self._policy_edited)
        policy_box = QWidget(group)
        policy_column = QVBoxLayout(policy_box)
        policy_column.setContentsMargins(0, 0, 0, 0)
        policy_column.addWidget(self.policy_box)
        policy_column.addWidget(self.policy_explanation)
        self.policy_label = QLabel(self.tr("When the chat is too long"), group)
        form.addRow(self.policy_label, policy_box)
        self.long_memory_box = QCheckBox(self.tr("Long memory: recall dropped turns"), group)
        self.long_memory_box.setToolTip(
            self.tr(
                "Turns the context window dropped are indexed on this computer; the ones that matter to a new "
                "message come back into its prompt, marked as recalled."
            )
        )
        self.long_memory_box.clicked.connect(self.longMemoryToggled)
        form.addRow(self.long_memory_box)
        self._layout.addWidget(group)

    def set_model_default_prompt(self, text: str | None) -> None:
        """The loaded model's own default system prompt, shown in the empty box ("": its template has none;
        None: not known)."""
        self.model_default_prompt = text
        self._show_model_default_prompt()

    def _show_model_default_prompt(self) -> None:
        if self.model_default_prompt:
            hint = fill(
                self.tr("Empty: the model's own default system prompt is used:\n{prompt}"),
                prompt=self.model_default_prompt,
            )
        elif self.model_default_prompt is None:
            hint = self.tr("Empty: the model's own default, if it has one")
        else:
            hint = self.tr("Empty: no system prompt (this model's template brings none of its own)")
        self.system_prompt.setPlaceholderText(hint)
        self.system_prompt.setAccessibleDescription(hint)
        self.system_prompt.viewport().update()  # Qt repaints a changed placeholder only on the next paint

    def set_long_memory(self, enabled: bool) -> None:
        """Show whether the chat on show has long memory on (kept in the documents index, not the settings)."""
        self.long_memory_box.setChecked(enabled)

    def _build_buttons(self, parent: QWidget) -> None:
        row = QHBoxLayout()
        self.reset_button = QToolButton(parent)
        self.reset_button.setText(self.tr("Reset to defaults"))
        self.reset_button.setToolTip(
            self.tr("Forget this chat's own settings: it follows the defaults again (the arrow offers Glassbox's own)")
        )
        self.reset_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.reset_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        menu = QMenu(self.reset_button)
        self.factory_action = menu.addAction(self.tr("Restore Glassbox's own defaults…"))
        self.factory_action.setToolTip(self.tr("Put the defaults back to Glassbox's own (your presets are kept)"))
        self.reset_button.setMenu(menu)
        self.save_defaults_button = QPushButton(self.tr("Save as default for new chats"), parent)
        self.save_defaults_button.setToolTip(
            self.tr("New chats, and the chats that follow the defaults, use this chat's settings")
        )
        row.addWidget(self.reset_button)
        row.addStretch(1)
        second = QHBoxLayout()  # a line of its own, so the panel stays narrow
        second.addWidget(self.save_defaults_button)
        second.addStretch(1)
        self.reset_button.clicked.connect(self.use_defaults)
        self.save_defaults_button.clicked.connect(self.save_as_defaults)
        self.factory_action.triggered.connect(self._confirm_and_restore)
        self._layout.addLayout(row)
        self._layout.addLayout(second)

    def _build_model(self, parent: QWidget) -> None:
        group = QGroupBox(self.tr("Model — every chat"), parent)
        form = QFormLayout(group)
        for name, spec in MODEL_FIELDS.items():
            field = _Field(spec, self._model_editor(spec, group), group)
            self._fields[name] = field
            form.addRow(field.label, field.box)
        self.gpu_layers_note = QLabel(group)
        self.gpu_layers_note.setWordWrap(True)
        set_tone(self.gpu_layers_note, Tone.NOTE)
        form.addRow(self.tr("GPU layers"), self.gpu_layers_note)
        self.reload_note = QLabel(self.tr("These apply when the model is loaded again."), group)
        self.reload_note.setWordWrap(True)
        set_tone(self.reload_note, Tone.WARNING)
        self.reload_button = QPushButton(self.tr("Reload now"), group)
        self.reload_button.setToolTip(self.tr("Load the model again with these settings"))
        self.reload_button.clicked.connect(self.reloadRequested)
        self.reload_row = QWidget(group)
        reload_line = QHBoxLayout(self.reload_row)
        reload_line.setContentsMargins(0, 0, 0, 0)
        reload_line.addWidget(self.reload_note, 1)
        reload_line.addWidget(self.reload_button)
        self.reload_row.hide()
        form.addRow(self.reload_row)
        self._layout.addWidget(group)

    def _model_editor(self, spec: FieldSpec, parent: QWidget) -> QWidget:
        """A check box for on/off, a list for a choice, else a line; each reports the user's edits only."""
        name = spec.name
        if spec.kind == "bool":
            box = QCheckBox(parent)
            box.clicked.connect(lambda _checked, n=name: self._model_edited(n))
            return box
        if spec.kind == "file":
            files = QComboBox(parent)
            files.addItem(self.tr("None"), "")
            files.activated.connect(lambda _index, n=name: self._model_edited(n))
            return files
        if spec.kind == "choice":
            choices = QComboBox(parent)
            labels = self._choice_labels()
            for value in spec.choices:
                choices.addItem(labels.get(value, value), value)
            choices.activated.connect(lambda _index, n=name: self._model_edited(n))
            return choices
        line = QLineEdit(parent)
        line.editingFinished.connect(lambda n=name: self._model_edited(n))
        return line

    def _choice_labels(self) -> dict[str, str]:
        return {
            "off": self.tr("Off"),
            "auto": self.tr("Auto"),
            "on": self.tr("On"),
            "model": self.tr("The model's own"),
            "none": self.tr("None"),
            "linear": self.tr("Linear"),
            "yarn": self.tr("YaRN"),
        }

    def _put_model(self, name: str, value: Any) -> None:
        editor = self._fields[name].editor
        if isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QComboBox):
            if editor.findData(value) < 0:  # a file that is not (or no longer) in the library
                editor.addItem(Path(value).name, value)
            editor.setCurrentIndex(editor.findData(value))
        else:
            assert isinstance(editor, QLineEdit)
            editor.setText(describe_value(value))

    def set_library(self, models: Sequence[tuple[str, Path]]) -> None:
        """The models a draft model can be chosen from: (label, path) of each in the library."""
        for name, spec in MODEL_FIELDS.items():
            if spec.kind != "file":
                continue
            editor = self._fields[name].editor
            assert isinstance(editor, QComboBox)
            while editor.count() > 1:  # "None" stays
                editor.removeItem(1)
            for label, path in models:
                editor.addItem(label, str(path))
            self._put_model(name, getattr(self.settings.model, name))

    def _model_value(self, name: str) -> Any:
        editor = self._fields[name].editor
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, QComboBox):
            return editor.currentData()
        assert isinstance(editor, QLineEdit)
        return editor.text()

    def _policy_labels(self) -> dict[WindowPolicy, str]:
        return {
            WindowPolicy.ROLLING: self.tr("Rolling window: drop the oldest turns"),
            WindowPolicy.TRUNCATE_MIDDLE: self.tr("Truncate the middle: keep the first exchange"),
            WindowPolicy.STOP_AT_LIMIT: self.tr("Stop at the limit: refuse and say so"),
        }

    def _policy_explanations(self) -> dict[WindowPolicy, str]:
        return {
            WindowPolicy.ROLLING: self.tr(
                "The oldest turns leave the window, a quarter of it at a time so the model's cache stays useful."
            ),
            WindowPolicy.TRUNCATE_MIDDLE: self.tr(
                "The first question and its answer stay; the turns after them leave the window first."
            ),
            WindowPolicy.STOP_AT_LIMIT: self.tr(
                "Nothing is dropped: when the chat no longer fits, the next message is refused with a message."
            ),
        }

    # ---- state in, state out -----------------------------------------------------------

    def set_state(self, settings: Settings, chat: ChatSettings) -> None:
        """Show these defaults and this chat's own settings."""
        self.settings = settings
        self.chat = chat
        self._show()

    def _show(self) -> None:
        used = effective(self.settings, self.chat)
        defaults = self.settings.sampling
        for name, field in self._fields.items():
            field.show_error("")
            if name in MODEL_FIELDS:
                self._put_model(name, getattr(self.settings.model, name))
                continue
            value = getattr(used.sampling, name)
            self._put(name, field, value)
            field.set_changed(name in self.chat.sampling, describe_value(getattr(defaults, name)))
        self.decoding_box.show_settings(self.chat.decoding)
        self.system_prompt.setPlainText(used.system_prompt)
        own_prompt = self.chat.system_prompt is not None
        self.system_prompt_note.setText(
            self.tr("This chat's own system prompt.") if own_prompt else self.tr("The default system prompt.")
        )
        self.default_prompt_button.setEnabled(own_prompt)
        self.system_prompt_error.hide()
        _bold(self.system_prompt_label, own_prompt)
        self.gpu_layers_note.setText(
            fill(
                self.tr("{n} — set in the GPU offload panel (View → GPU offload), which shows what fits"),
                n=self.settings.model.n_gpu_layers,
            )
        )
        self.policy_box.setCurrentIndex(self.policy_box.findData(used.window_policy.value))
        self.policy_explanation.setText(self._policy_explanations()[used.window_policy])
        _bold(self.policy_label, self.chat.window_policy is not None)
        self._fill_presets()

    def _put(self, name: str, field: _Field, value: Any) -> None:
        if name == "seed":
            self.random_seed.blockSignals(True)
            self.random_seed.setChecked(value is None)
            self.random_seed.blockSignals(False)
            self.seed_edit.setEnabled(value is not None)
            self.seed_edit.setText("" if value is None else str(value))
        elif name == "stop":
            assert isinstance(field.editor, _TextBox)
            field.editor.setPlainText("\n".join(value))
        else:
            assert isinstance(field.editor, QLineEdit)
            field.editor.setText(describe_value(value))

    def _fill_presets(self) -> None:
        """The presets, with the one whose values this chat uses chosen; "Custom" when none matches."""
        names = [*PRESETS, *sorted(self.settings.presets)]
        used = effective(self.settings, self.chat).sampling
        matching = [name for name in names if self._matches(name, used)]
        chosen = self._preset_name if self._preset_name in matching else (matching[0] if matching else None)
        self.preset_box.blockSignals(True)
        self.preset_box.clear()
        for name in names:
            self.preset_box.addItem(name, name)
        if chosen is None:
            self.preset_box.addItem(self.tr("Custom"), None)
            self.preset_box.setCurrentIndex(self.preset_box.count() - 1)
        else:
            self.preset_box.setCurrentIndex(names.index(chosen))
        self.preset_box.blockSignals(False)
        self.delete_preset_button.setEnabled(chosen in self.settings.presets)

    def _matches(self, name: str, used: SamplingParams) -> bool:
        """This chat's sampling has every value the preset sets."""
        try:
            return used.with_values(self.settings.preset_values(name)) == used
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

    def set_field_text(self, name: str, text: str) -> None:
        """Type `text` into a field and finish editing (what a user does; used by tests and shortcuts)."""
        field = self._fields[name]
        if name == "seed":
            self.seed_edit.setText(text)
        elif isinstance(field.editor, QPlainTextEdit):
            field.editor.setPlainText(text)
        else:
            assert isinstance(field.editor, QLineEdit)
            field.editor.setText(text)
        if name in MODEL_FIELDS:
            self._model_edited(name)
        else:
            self._sampling_edited(name)

    def field_error(self, name: str) -> str:
        field = self._fields[name]
        return field.error.text() if not field.error.isHidden() else ""

    def _sampling_edited(self, name: str) -> None:
        field = self._fields[name]
        try:
            value = self._read(name, field)
            chat = self.chat.with_sampling({name: value}, self.settings.sampling)
        except InvalidSetting as error:
            current = getattr(effective(self.settings, self.chat).sampling, name)
            self._put(name, field, current)
            field.show_error(word(error.message) + " " + self.tr("The previous value is kept."))
            return
        if chat != self.chat:
            self._edit_chat(chat)
        else:
            field.show_error("")

    def _read(self, name: str, field: _Field) -> Any:
        if name == "seed":
            return None if self.random_seed.isChecked() else self.seed_edit.text().strip()
        if name == "stop":
            assert isinstance(field.editor, QPlainTextEdit)
            return [line for line in field.editor.toPlainText().split("\n") if line]
        assert isinstance(field.editor, QLineEdit)
        return field.editor.text()

    def _seed_mode_changed(self, random: bool) -> None:
        self.seed_edit.setEnabled(not random)
        if not random and not self.seed_edit.text().strip():
            self.seed_edit.setText("0")
        self._sampling_edited("seed")

    def _system_prompt_edited(self) -> None:
        text = self.system_prompt.toPlainText()
        if not text.strip():
            text = ""  # only whitespace: no system prompt, not an invisible one
        used = effective(self.settings, self.chat)
        if text == used.system_prompt:
            return
        try:
            check_system_prompt(text)
        except InvalidSetting as error:
            self.system_prompt_error.setText(word(error.message))
            self.system_prompt_error.show()
            return
        self._edit_chat(replace(self.chat, system_prompt=text))

    def _use_default_prompt(self) -> None:
        self._edit_chat(replace(self.chat, system_prompt=None))

    def _policy_edited(self, index: int) -> None:
        policy = WindowPolicy(self.policy_box.itemData(index))
        if policy is not effective(self.settings, self.chat).window_policy:
            chosen = None if policy is self.settings.chat.window_policy else policy
            self._edit_chat(replace(self.chat, window_policy=chosen))

    def set_policy(self, policy: WindowPolicy) -> None:
        index = self.policy_box.findData(policy.value)
        self.policy_box.setCurrentIndex(index)
        self._policy_edited(index)

    def _model_edited(self, name: str) -> None:
        field = self._fields[name]
        try:
            settings = self.settings.with_model({name: self._model_value(name)})
        except InvalidSetting as error:
            self._put_model(name, getattr(self.settings.model, name))
            field.show_error(word(error.message) + " " + self.tr("The previous value is kept."))
            return
        field.show_error("")
        if settings != self.settings:
            self._edit_defaults(settings)
            self.reload_row.show()

    def set_reload_possible(self, possible: bool) -> None:
        """Reload now works while a model is on duty and nothing runs (no load, no reply)."""
        self.reload_button.setEnabled(possible)

    def model_loaded(self) -> None:
        """A load finished: it used the model settings saved now, so nothing waits for a reload."""
        self.reload_row.hide()

    def _edit_chat(self, chat: ChatSettings) -> None:
        self.chat = chat
        self._show()
        self.chatSettingsEdited.emit(chat)

    def _edit_defaults(self, settings: Settings) -> None:
        self.settings = settings
        self._show()
        self.defaultsEdited.emit(settings)

    # ---- presets and defaults ------------------------------------------------------

    def apply_preset(self, name: str) -> None:
        try:
            values = self.settings.preset_values(name)
        except InvalidSetting as error:
            self._fields["temperature"].show_error(word(error.message))
            return
        self._preset_name = name
        self._edit_chat(self.chat.with_sampling(values, self.settings.sampling))

    def save_preset(self, name: str) -> str:
        """Save this chat's sampling settings as a preset; returns "" or why the name was refused."""
        try:
            settings = self.settings.with_preset(name, effective(self.settings, self.chat).sampling)
        except InvalidSetting as error:
            return word(error.message)
        self._preset_name = " ".join(name.split())
        self._edit_defaults(settings)
        return ""

    def delete_preset(self, name: str) -> None:
        if name in self.settings.presets:
            self._edit_defaults(self.settings.without_preset(name))

    def ask_preset_name(self) -> str:
        name, accepted = QInputDialog.getText(self, self.tr("Save preset"), self.tr("Name of the preset:"))
        return name if accepted else ""

    def _ask_and_save_preset(self) -> None:
        name = self.ask_preset_name()
        while name:
            problem = self.save_preset(name)
            if not problem:
                return
            QMessageBox.warning(self, self.tr("Save preset"), problem)
            name = self.ask_preset_name()

    def use_defaults(self) -> None:
        """This chat follows the defaults again."""
        self._edit_chat(ChatSettings())

    def save_as_defaults(self) -> None:
        """This chat's settings become the defaults for every chat."""
        used = effective(self.settings, self.chat)
        self.settings = replace(
            self.settings,
            sampling=used.sampling,
            chat=ChatDefaults(system_prompt=used.system_prompt, window_policy=used.window_policy),
        )
        self.defaultsEdited.emit(self.settings)
        self._edit_chat(ChatSettings())

    def restore_defaults(self) -> None:
        """Glassbox's own defaults for sampling, system prompt and policy; presets and model settings stay."""
        self._edit_defaults(replace(self.settings, sampling=SamplingParams(), chat=ChatDefaults()))

    def confirm_restore(self) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Restore defaults"),
            self.tr("Put the default sampling settings, system prompt and window policy back to Glassbox's own?"),
        )
        return answer == QMessageBox.StandardButton.Yes

    def _confirm_and_restore(self) -> None:
        if self.confirm_restore():
            self.restore_defaults()


def _bold(label: QLabel, bold: bool) -> None:
    font = label.font()
    font.setBold(bold)
    label.setFont(font)
