"""The settings store: the one owner of the settings while the window runs.

It holds the defaults (`Settings`, read from the settings file once before the window shows,
as every app reads its configuration) and the chat on show's own settings (`ChatSettings`,
kept with the chat in its history), and says what changed by section, so each view follows
only what it shows: a temperature edit reaches the sampling subscribers and nothing else (no
new context plan, no GPU panel refresh, no monitor).

Writes leave as signals: the defaults through `saveRequested` (the chat session hands them to
its storage thread, so the GUI never waits for the disk), the chat's own settings through
`chatEdited` (saved with the chat). The Hub mirror it holds is put in effect for the whole
process (`core.hub.mirror.use_mirror`) when the settings are read and whenever it changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, SignalInstance

from app.core.hub.mirror import use_mirror
from app.core.settings import (
    ChatSettings,
    EffectiveSettings,
    LoadedSettings,
    ModelSettings,
    Settings,
    effective,
    load_settings,
)


class SettingsStore(QObject):
    samplingChanged = Signal()  # how tokens are chosen: the defaults, this chat's own, its decoding, the presets
    chatChanged = Signal()  # the system prompt, the window policy (the defaults or this chat's own), its tools
    planChanged = Signal()  # what the context window's plan reads: system prompt, window policy, max tokens, tools
    modelChanged = Signal()  # how models are loaded: the model section and each model's own load settings
    monitorChanged = Signal()  # alert thresholds, idle unload, smaller variants
    appearanceChanged = Signal()  # interface language and theme
    serversChanged = Signal()  # the saved remote servers
    toolsAllowedChanged = Signal()  # the MCP tools the user always allows
    hubChanged = Signal()  # the Hugging Face Hub mirror (in effect for every Hub request at once)
    servingChanged = Signal()  # how the window's API server serves the model (its parallel replies)
    chatEdited = Signal(object)  # ChatSettings: the chat on show's own settings, as the user changed them
    saveRequested = Signal(object)  # Settings: the defaults, to be written to the settings file

    def __init__(self, loaded: LoadedSettings | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        loaded = loaded or LoadedSettings(Settings())
        self._settings = loaded.settings
        self._chat = ChatSettings()
        use_mirror(self._settings.hub.endpoint)
        self.notices: tuple[str, ...] = tuple(loaded.notices)  # what reading the file found (a reset, a fallback)

    @classmethod
    def from_file(cls, path: Path, parent: QObject | None = None) -> SettingsStore:
        """The settings in `path` (never raises: a damaged file gives the defaults and a notice)."""
        return cls(load_settings(path), parent)

    @property
    def settings(self) -> Settings:
        """The defaults, presets, model, monitor, appearance and server settings."""
        return self._settings

    @property
    def chat(self) -> ChatSettings:
        """What the chat on show changes from the defaults."""
        return self._chat

    def effective(self) -> EffectiveSettings:
        """What the chat on show uses."""
        return effective(self._settings, self._chat)

    def model_settings(self, key: str) -> ModelSettings:
        """How the model `key` (its file's name) is loaded: its own load settings over the model section."""
        return self._settings.model_for(key)

    def set_defaults(self, settings: Settings) -> None:
        """New defaults (any section): saved, and each section that changed says so."""
        if settings != self._settings:
            self._change(settings, self._chat)
            self.saveRequested.emit(settings)

    def set_model(self, values: Mapping[str, Any], key: str | None = None) -> None:
        """Change load settings (checked: InvalidSetting names the first bad value); with `key`, that model's own."""
        self.set_defaults(self._settings.with_model(values, key))

    def set_monitor(self, values: Mapping[str, Any]) -> None:
        """Change monitor settings (checked: InvalidSetting names the first bad value)."""
        self.set_defaults(self._settings.with_monitor(values))

    def set_serving(self, values: Mapping[str, Any]) -> None:
        """Change how the API server serves (checked: InvalidSetting names the first bad value)."""
        self.set_defaults(self._settings.with_serving(values))

    def edit_chat(self, chat: ChatSettings) -> None:
        """The user changed the chat on show's own settings: kept, announced for saving with the chat."""
        if chat != self._chat:
            self._change(self._settings, chat)
            self.chatEdited.emit(chat)

    def show_chat(self, chat: ChatSettings) -> None:
        """Another chat is on show: its own settings (already saved with it) are the ones in use."""
        self._change(self._settings, chat)

    def _change(self, settings: Settings, chat: ChatSettings) -> None:
        before = _sections(self._settings, self._chat)
        self._settings, self._chat = settings, chat
        after = _sections(settings, chat)
        if before["hub"] != after["hub"]:
            use_mirror(settings.hub.endpoint)  # before anyone hears of it: a request made then goes there
        for name, signal in self._section_signals().items():
            if before[name] != after[name]:
                signal.emit()

    def _section_signals(self) -> dict[str, SignalInstance]:
        return {
            "sampling": self.samplingChanged,
            "chat": self.chatChanged,
            "plan": self.planChanged,
            "model": self.modelChanged,
            "monitor": self.monitorChanged,
            "appearance": self.appearanceChanged,
            "servers": self.serversChanged,
            "tools_always_allowed": self.toolsAllowedChanged,
            "hub": self.hubChanged,
            "serving": self.servingChanged,
        }


def _sections(settings: Settings, chat: ChatSettings) -> dict[str, object]:
    """What each section's subscribers read, to be compared before and after a change."""
    used = effective(settings, chat)
    return {
        "sampling": (settings.sampling, settings.presets, chat.sampling, chat.decoding),
        "chat": (settings.chat, chat.system_prompt, chat.window_policy, chat.tool_servers, chat.tools_off),
        "plan": (used.system_prompt, used.window_policy, used.sampling.max_tokens, chat.tool_servers, chat.tools_off),
        "model": (settings.model, settings.model_overrides),
        "monitor": settings.monitor,
        "appearance": settings.appearance,
        "servers": settings.servers,
        "tools_always_allowed": settings.tools_always_allowed,
        "hub": settings.hub,
        "serving": settings.serving,
    }
