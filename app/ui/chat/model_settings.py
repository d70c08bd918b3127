"""The model part of the settings panel: context length, threads and the load options, for every chat
(the same saved values the GPU offload panel shows and plans the memory for; its GPU layers are
named here too). It follows the settings store's model section only.

The fields show and change one model's own load settings (the model on duty, by its file's name)
or the defaults, which every model without its own uses; "Applies to" says which. A value equal to
the default stops being the model's own, and "Use the defaults" forgets them all."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.inference.sampling import FieldSpec, InvalidSetting, describe_value
from app.core.inference.template_choice import BUILT_IN, CUSTOM, FAMILY_NAMES
from app.core.models.projector_pairing import projectors_beside
from app.core.settings import GPU_LAYERS_FIELD, MODEL_FIELDS, ModelSettings
from app.core.support.formatting import fill
from app.ui.chat.setting_rows import SettingRow
from app.ui.chat.template_editor import TemplateEditor
from app.ui.settings.store import SettingsStore
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone
from app.ui.widgets.wrapping_label import WrappingLabel

PROJECTOR_FIELD = "mmproj"  # a file field whose choices are projectors, not models
TEMPLATE_FIELD = "chat_template"  # a choice field whose "Your own" opens the template editor


class ModelSettingsBox(QGroupBox):
    reloadRequested = Signal()  # load the model again so the model settings apply

    def __init__(self, store: SettingsStore, parent: QWidget | None = None, *, gpu_layers_field: bool = False) -> None:
        """`gpu_layers_field`: GPU layers are typed here too, rather than pointed to in the GPU offload panel."""
        super().__init__(parent)
        self.store = store
        self.setTitle(self.tr("Model — every chat"))
        self.rows: dict[str, SettingRow] = {}
        form = QFormLayout(self)
        # Each field under its name: its explanation takes the whole width (beside a name it was a column of words)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        self.scope = narrow_combo(QComboBox(self))  # whose load settings: a model's own, or the defaults
        self.scope.setToolTip(self.tr("Load settings of this model only, or the defaults for every model"))
        self.scope.activated.connect(lambda _index: self.show_settings())
        self.own_note = WrappingLabel(parent=self)
        set_tone(self.own_note, Tone.NOTE)
        self.defaults_button = QPushButton(self.tr("&Use the defaults"), self)
        self.defaults_button.setToolTip(self.tr("Forget this model's own load settings: it loads with the defaults"))
        self.defaults_button.clicked.connect(self.use_defaults)
        self.scope_label = QLabel(self.tr("&Applies to"), self)
        self.scope_label.setBuddy(self.scope)
        form.addRow(self.scope_label, self.scope)
        own_line = QWidget(self)
        own_row = QHBoxLayout(own_line)
        own_row.setContentsMargins(0, 0, 0, 0)
        own_row.addWidget(self.own_note, 1)
        own_row.addWidget(self.defaults_button)
        form.addRow(own_line)
        self.set_model(None)
        fields = {GPU_LAYERS_FIELD.name: GPU_LAYERS_FIELD, **MODEL_FIELDS} if gpu_layers_field else MODEL_FIELDS
        for name, spec in fields.items():
            row = SettingRow(spec, self._editor(spec), self)
            self.rows[name] = row
            form.addRow(row.label, row.box)
        self.template_editor: TemplateEditor | None = None  # open while a template of one's own is edited
        self.template_in_use = ""  # the template the model shown was loaded with ("" not loaded): a start to edit
        self.edit_template_button = QPushButton(self.tr("Edit the template…"), self)
        self.edit_template_button.setToolTip(self.tr("Write or paste a Jinja chat template of this model's own"))
        self.edit_template_button.clicked.connect(self.edit_template)
        template_column = self.rows[TEMPLATE_FIELD].box.layout()
        assert isinstance(template_column, QVBoxLayout)
        template_column.insertWidget(1, self.edit_template_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.gpu_layers_note: QLabel | None = None  # where GPU layers are set, when not here
        if not gpu_layers_field:
            self.gpu_layers_note = WrappingLabel(parent=self)
            set_tone(self.gpu_layers_note, Tone.NOTE)
            form.addRow(self.tr("GPU layers"), self.gpu_layers_note)
        self.reload_note = WrappingLabel(self.tr("These apply when the model is loaded again."), self)
        set_tone(self.reload_note, Tone.WARNING)
        self.reload_button = QPushButton(self.tr("Reload now"), self)
        self.reload_button.setToolTip(self.tr("Load the model again with these settings"))
        self.reload_button.clicked.connect(self.reloadRequested)
        self.reload_row = QWidget(self)
        reload_line = QHBoxLayout(self.reload_row)
        reload_line.setContentsMargins(0, 0, 0, 0)
        reload_line.addWidget(self.reload_note, 1)
        reload_line.addWidget(self.reload_button)
        self.reload_row.hide()
        form.addRow(self.reload_row)
        store.modelChanged.connect(self.show_settings)
        self.show_settings()

    def _editor(self, spec: FieldSpec) -> QWidget:
        """A check box for on/off, a list for a choice, else a line; each reports the user's edits only."""
        name = spec.name
        if spec.kind == "bool":
            box = QCheckBox(self)
            box.clicked.connect(lambda _checked, n=name: self.edited(n))
            return box
        if spec.kind == "file":
            files = narrow_combo(QComboBox(self))
            files.addItem(self.tr("Found beside the model") if name == PROJECTOR_FIELD else self.tr("None"), "")
            files.activated.connect(lambda _index, n=name: self.edited(n))
            return files
        if spec.kind == "choice":
            choices = narrow_combo(QComboBox(self))
            labels = self._choice_labels()
            for value in spec.choices:
                choices.addItem(labels.get(value, value), value)
            if name == TEMPLATE_FIELD:
                choices.activated.connect(self._template_chosen)
            else:
                choices.activated.connect(lambda _index, n=name: self.edited(n))
            return choices
        line = QLineEdit(self)
        line.editingFinished.connect(lambda n=name: self.edited(n))
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
            "raw": self.tr("Raw completion (no template)"),
            CUSTOM: self.tr("Your own (Jinja)…"),
            **FAMILY_NAMES,  # a template family's own name
        }

    def set_model(self, key: str | None, template_in_use: str = "") -> None:
        """The model on duty (its file's name; None: a server's, or none): its own settings are the ones shown;
        `template_in_use`: the chat template it was loaded with."""
        self.template_in_use = template_in_use
        self.scope.clear()
        if key:
            self.scope.addItem(fill(self.tr("{name} only"), name=key), key)
        self.scope.addItem(self.tr("Defaults: every model without its own"), "")
        self.scope.setCurrentIndex(0)
        if self.rows:
            self.show_settings()

    def pin_model(self, key: str, template_in_use: str = "") -> None:
        """Show and change only the model `key`'s load settings (no choice of scope)."""
        self.set_model(key, template_in_use)
        self.scope_label.hide()
        self.scope.hide()

    def model_key(self) -> str | None:
        """The model whose own settings the fields change; None: the defaults."""
        return self.scope.currentData() or None

    def _shown(self) -> ModelSettings:
        key = self.model_key()
        return self.store.model_settings(key) if key else self.store.settings.model

    def show_settings(self) -> None:
        """Show the saved settings of the scope (the model's own over the defaults, or the defaults), which
        of them are the model's own, and the GPU layers the GPU offload panel sets."""
        model = self._shown()
        key = self.model_key()
        own = self.store.settings.model_overrides.get(key, {}) if key else {}
        for name, row in self.rows.items():
            row.show_error("")
            self._put(name, getattr(model, name))
            font = row.label.font()
            font.setBold(name in own)
            row.label.setFont(font)
        if key is None:
            self.own_note.setText(self.tr("A model with load settings of its own uses those instead."))
        elif own:
            self.own_note.setText(
                fill(
                    self.tr("{name} has {count} load settings of its own (in bold); the others are the defaults."),
                    name=key,
                    count=len(own),
                )
            )
        else:
            self.own_note.setText(fill(self.tr("{name} loads with the defaults; a change here is its own."), name=key))
        self.defaults_button.setVisible(bool(own))
        if self.gpu_layers_note is not None:
            self.gpu_layers_note.setText(
                fill(
                    self.tr("{n} — set in the GPU offload panel (View → GPU offload), which shows what fits"),
                    n=model.n_gpu_layers,
                )
            )

    def _put(self, name: str, value: Any) -> None:
        editor = self.rows[name].editor
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
        """The models a draft model can be chosen from: (label, path) of each in the library; a projector
        is chosen from the projector files beside them."""
        projectors = [(path.name, path) for path in projectors_beside(path for _, path in models)]
        for name, row in self.rows.items():
            if row.spec.kind != "file":
                continue
            editor = self.rows[name].editor
            assert isinstance(editor, QComboBox)
            while editor.count() > 1:  # "None" (the projector: "Found beside the model") stays
                editor.removeItem(1)
            for label, path in projectors if name == PROJECTOR_FIELD else models:
                editor.addItem(label, str(path))
            self._put(name, getattr(self._shown(), name))

    def type_text(self, name: str, text: str) -> None:
        """Type `text` into a line field and finish editing (what a user does)."""
        editor = self.rows[name].editor
        assert isinstance(editor, QLineEdit)
        editor.setText(text)
        self.edited(name)

    def edited(self, name: str) -> None:
        """A field's editing ended: the value is saved (the model's own, or the default), or refused with the reason."""
        row = self.rows[name]
        try:
            settings = self.store.settings.with_model({name: self._value(name)}, self.model_key())
        except InvalidSetting as error:
            self._put(name, getattr(self._shown(), name))
            row.show_error(word(error.message) + " " + self.tr("The previous value is kept."))
            return
        row.show_error("")
        if settings != self.store.settings:
            self.store.set_defaults(settings)
            self.reload_row.show()

    def _template_chosen(self, _index: int) -> None:
        if self._value(TEMPLATE_FIELD) == CUSTOM:
            self.edit_template()  # saved once the editor has tried it
        else:
            self.edited(TEMPLATE_FIELD)

    def edit_template(self) -> TemplateEditor:
        """Open the template editor on the template of one's own, else the family chosen's text, else the one the
        model was loaded with."""
        shown = self._shown()
        text = shown.chat_template_text or BUILT_IN.get(shown.chat_template, "")
        if not text and self.model_key() is not None:
            text = self.template_in_use
        whose = self.model_key() or self.tr("the defaults")
        editor = TemplateEditor(whose, text, self._save_template, self)
        editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        editor.finished.connect(self._template_editor_closed)
        self.template_editor = editor
        editor.open()
        return editor

    @Slot(int)
    def _template_editor_closed(self, _result: int) -> None:
        if self.template_editor is self.sender():  # not a newer editor opened since
            self.template_editor = None
        self._put(TEMPLATE_FIELD, self._shown().chat_template)  # a cancelled "Your own" shows what is saved

    def _save_template(self, text: str) -> str:
        """Save `text` as the template of one's own and use it: "" when saved, else why it was refused."""
        try:
            settings = self.store.settings.with_model(
                {TEMPLATE_FIELD: CUSTOM, "chat_template_text": text}, self.model_key()
            )
        except InvalidSetting as error:
            return word(error.message)
        if settings != self.store.settings:
            self.store.set_defaults(settings)
            self.reload_row.show()
        return ""

    def use_defaults(self) -> None:
        """Forget the model's own load settings: from its next load on it uses the defaults."""
        key = self.model_key()
        if key is not None and key in self.store.settings.model_overrides:
            self.store.set_defaults(self.store.settings.without_model(key))
            self.reload_row.show()

    def _value(self, name: str) -> Any:
        editor = self.rows[name].editor
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, QComboBox):
            return editor.currentData()
        assert isinstance(editor, QLineEdit)
        return editor.text()

    def set_reload_possible(self, possible: bool) -> None:
        """Reload now works while a model is on duty and nothing runs (no load, no reply)."""
        self.reload_button.setEnabled(possible)

    def model_loaded(self) -> None:
        """A load finished: it used the model settings saved now, so nothing waits for a reload."""
        self.reload_row.hide()


def narrow_combo(box: QComboBox) -> QComboBox:
    """A list as narrow as 16 characters whatever its longest item (a model's file name, a scope's words),
    so the panel's narrowest width does not grow with the library."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(16)
    return box
