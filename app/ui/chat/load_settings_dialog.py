"""One model's load settings, opened from the Models window's Library and from the model picker.

It is the settings panel's model box pinned to that model, with its GPU layers as a field: each
edit is saved at once as that model's own (a value equal to the default stops being its own), and
"Use the defaults" forgets them. They apply at the model's next load; when the model is the one
loaded now, "Reload now" loads it again with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.ui.chat.model_settings import ModelSettingsBox
from app.ui.settings.store import SettingsStore
from app.ui.widgets.screen_fit import resize_to_fit
from app.ui.widgets.theme import Tone, set_tone
from app.ui.widgets.wheel_guard import guard_wheel


class LoadSettingsDialog(QDialog):
    reloadRequested = Signal(object)  # Path: load this model again, with the settings saved now

    def __init__(
        self,
        store: SettingsStore,
        path: Path,
        library: Sequence[tuple[str, Path]],
        loaded: bool,
        parent: QWidget | None = None,
        template_in_use: str = "",
    ) -> None:
        """`library`: (label, path) of the library's models, for the draft model; `loaded`: `path` is loaded now,
        with the chat template `template_in_use`."""
        super().__init__(parent)
        self.path = path
        self.setWindowTitle(fill(self.tr("Load settings — {name}"), name=path.name))
        resize_to_fit(self, 640, 720)
        if loaded:
            text = self.tr(
                "{name} is loaded now: a change applies when it is loaded again (Reload now). "
                "Settings in bold are its own; the others are the defaults every model uses."
            )
        else:
            text = self.tr(
                "A change applies at the next load of {name}. "
                "Settings in bold are its own; the others are the defaults every model uses."
            )
        self.note = QLabel(fill(text, name=path.name), self)
        self.note.setWordWrap(True)
        set_tone(self.note, Tone.NOTE)
        self.box = ModelSettingsBox(store, self, gpu_layers_field=True)
        self.box.setTitle("")
        self.box.setFlat(True)
        self.box.pin_model(path.name, template_in_use)
        self.box.set_library(library)
        self.box.reload_button.setVisible(loaded)  # a model not loaded takes the settings at its next load
        self.box.reloadRequested.connect(self._reload)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.box)
        guard_wheel(self.box)  # the wheel scrolls the settings; it changes a field only when that has the focus
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(scroll, 1)
        layout.addWidget(buttons)

    def _reload(self) -> None:
        self.reloadRequested.emit(self.path)
        self.box.model_loaded()
