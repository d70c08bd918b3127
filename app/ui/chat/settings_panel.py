"""The settings panel: how replies are sampled, the system prompt and context window of this chat,
presets, the defaults for every chat, and how the model is loaded.

Each part is a section of its own that reads the settings store and follows its section's
signal only (prompt_settings.py, sampling_settings.py, model_settings.py); every field is
built from its spec (bounds and a one-line explanation live with the field's declaration in
app.core.inference.sampling / app.core.settings). Edits apply to the chat on show; a field in
bold differs from the defaults. A value outside the bounds is refused with a message under
the field and the previous value stays. The panel adds what concerns all sections: back to the
defaults, and this chat's settings as the defaults.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.inference.sampling import SamplingParams
from app.core.settings import ChatDefaults, ChatSettings
from app.ui.chat.model_settings import ModelSettingsBox
from app.ui.chat.prompt_settings import PromptSettings
from app.ui.chat.sampling_settings import SamplingSettings
from app.ui.chat.tool_servers import ToolServersButton
from app.ui.settings.store import SettingsStore


class SettingsPanel(QScrollArea):
    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.setWidgetResizable(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes straight to its fields; the panel scrolls to each
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(300)
        content = QWidget(self)
        layout = QVBoxLayout(content)
        self.prompt = PromptSettings(store, content)
        self.sampling = SamplingSettings(store, content)
        self.model = ModelSettingsBox(store, content)
        self.tools = ToolServersButton(store, content)
        layout.addWidget(self.prompt)
        layout.addWidget(self.tools, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.sampling)
        self._build_buttons(content, layout)
        layout.addWidget(self.model)
        layout.addStretch(1)
        self.setWidget(content)

    def minimumSizeHint(self) -> QSize:
        """As wide as its fields need, with the scroll bar: a dock never cuts its right edge (it scrolls sideways
        never)."""
        content = self.widget()
        inner = content.minimumSizeHint().width() if content is not None else 0
        width = max(inner + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth(), self.minimumWidth())
        return QSize(width, super().minimumSizeHint().height())

    def _build_buttons(self, parent: QWidget, layout: QVBoxLayout) -> None:
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
        layout.addLayout(row)
        layout.addLayout(second)

    def set_field_text(self, name: str, text: str) -> None:
        """Type `text` into a sampling or model field and finish editing (what a user does; used by tests)."""
        section = self.sampling if name in self.sampling.rows else self.model
        section.type_text(name, text)

    def field_error(self, name: str) -> str:
        """The message under a field ("" when it shows none)."""
        return {**self.sampling.rows, **self.model.rows}[name].error_text()

    def use_defaults(self) -> None:
        """This chat follows the defaults again."""
        self.store.edit_chat(ChatSettings())

    def save_as_defaults(self) -> None:
        """This chat's settings become the defaults for every chat."""
        used = self.store.effective()
        chat = ChatDefaults(system_prompt=used.system_prompt, window_policy=used.window_policy)
        self.store.set_defaults(replace(self.store.settings, sampling=used.sampling, chat=chat))
        self.use_defaults()

    def restore_defaults(self) -> None:
        """Glassbox's own defaults for sampling, system prompt and policy; presets and model settings stay."""
        self.store.set_defaults(replace(self.store.settings, sampling=SamplingParams(), chat=ChatDefaults()))

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
