"""The system prompt and context window part of the settings panel, for the chat on show: the prompt,
what happens when the chat grows past the window, and long memory. It follows the settings store's
chat section only."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.chat.context_window import WindowPolicy
from app.core.inference.sampling import InvalidSetting
from app.core.settings import check_system_prompt
from app.core.support.formatting import fill
from app.ui.chat.setting_rows import TextBox, set_bold
from app.ui.settings.store import SettingsStore
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone
from app.ui.widgets.wrapping_label import WrappingLabel


class PromptSettings(QGroupBox):
    longMemoryToggled = Signal(bool)  # the chat on show: long memory on or off

    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.setTitle(self.tr("System prompt and context — this chat"))
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        self.system_prompt_label = QLabel(self.tr("System prompt"), self)
        form.addRow(self.system_prompt_label, self._build_prompt())
        self.policy_label = QLabel(self.tr("When the chat is too long"), self)
        form.addRow(self.policy_label, self._build_policy())
        self.long_memory_box = QCheckBox(self.tr("Long memory: recall dropped turns"), self)
        self.long_memory_box.setToolTip(
            self.tr(
                "Turns the context window dropped are indexed on this computer; the ones that matter to a new "
                "message come back into its prompt, marked as recalled."
            )
        )
        self.long_memory_box.clicked.connect(self.longMemoryToggled)
        form.addRow(self.long_memory_box)
        store.chatChanged.connect(self.show_settings)
        self.show_settings()

    def _build_prompt(self) -> QWidget:
        self.system_prompt = TextBox(self)
        self.system_prompt.setAccessibleName(self.tr("System prompt"))
        self.system_prompt.setFixedHeight(90)
        self.system_prompt.editingFinished.connect(self._system_prompt_edited)
        self.system_prompt_note = WrappingLabel(parent=self)
        set_tone(self.system_prompt_note, Tone.NOTE)
        self.system_prompt_error = QLabel(self)
        set_tone(self.system_prompt_error, Tone.ERROR)
        self.system_prompt_error.hide()
        self.default_prompt_button = QPushButton(self.tr("Use the default prompt"), self)
        self.default_prompt_button.clicked.connect(
            lambda: self.store.edit_chat(replace(self.store.chat, system_prompt=None))
        )
        box = QWidget(self)
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
        return box

    def _build_policy(self) -> QWidget:
        self.policy_box = QComboBox(self)
        self.policy_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.policy_box.setMinimumContentsLength(16)
        for policy, label in self._policy_labels().items():
            self.policy_box.addItem(label, policy.value)
        self.policy_explanation = WrappingLabel(parent=self)
        set_tone(self.policy_explanation, Tone.NOTE)
        self.policy_box.activated.connect(self._policy_edited)
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.policy_box)
        column.addWidget(self.policy_explanation)
        return box

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

    def show_settings(self) -> None:
        """Show the prompt and policy the chat on show uses, in bold where they are its own."""
        used, chat = self.store.effective(), self.store.chat
        self.system_prompt.setPlainText(used.system_prompt)
        own_prompt = chat.system_prompt is not None
        self.system_prompt_note.setText(
            self.tr("This chat's own system prompt.") if own_prompt else self.tr("The default system prompt.")
        )
        self.default_prompt_button.setEnabled(own_prompt)
        self.system_prompt_error.hide()
        set_bold(self.system_prompt_label, own_prompt)
        self.policy_box.setCurrentIndex(self.policy_box.findData(used.window_policy.value))
        self.policy_explanation.setText(self._policy_explanations()[used.window_policy])
        set_bold(self.policy_label, chat.window_policy is not None)

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

    def _system_prompt_edited(self) -> None:
        text = self.system_prompt.toPlainText()
        if not text.strip():
            text = ""  # only whitespace: no system prompt, not an invisible one
        if text == self.store.effective().system_prompt:
            return
        try:
            check_system_prompt(text)
        except InvalidSetting as error:
            self.system_prompt_error.setText(word(error.message))
            self.system_prompt_error.show()
            return
        self.store.edit_chat(replace(self.store.chat, system_prompt=text))

    def _policy_edited(self, index: int) -> None:
        policy = WindowPolicy(self.policy_box.itemData(index))
        if policy is not self.store.effective().window_policy:
            chosen = None if policy is self.store.settings.chat.window_policy else policy
            self.store.edit_chat(replace(self.store.chat, window_policy=chosen))

    def set_policy(self, policy: WindowPolicy) -> None:
        index = self.policy_box.findData(policy.value)
        self.policy_box.setCurrentIndex(index)
        self._policy_edited(index)
