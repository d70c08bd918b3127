"""The settings store: one owner, a change signal per section, writes announced for saving."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest

from app.core.chat.context_window import WindowPolicy
from app.core.inference.decoding_mode import DecodingMode, DecodingSettings
from app.core.inference.sampling import InvalidSetting, SamplingParams
from app.core.paths import app_paths
from app.core.settings import Appearance, ChatSettings, Settings, Theme
from app.ui.settings.store import SettingsStore

SECTIONS = ("sampling", "chat", "plan", "model", "monitor", "appearance", "servers")


class Emitted:
    """Which of the store's section signals fired, and what it asked to save."""

    def __init__(self, store: SettingsStore) -> None:
        self.sections: list[str] = []
        self.saved: list[Settings] = []
        self.chats: list[ChatSettings] = []
        for name in SECTIONS:
            getattr(store, f"{name}Changed").connect(self._recorder(name))
        store.saveRequested.connect(self.saved.append)
        store.chatEdited.connect(self.chats.append)

    def _recorder(self, name: str) -> Callable[[], None]:
        return lambda: self.sections.append(name)


@pytest.fixture
def store() -> SettingsStore:
    return SettingsStore()


def test_a_temperature_edit_changes_the_sampling_section_only(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.edit_chat(store.chat.with_sampling({"temperature": 1.3}, store.settings.sampling))
    assert emitted.sections == ["sampling"]
    assert store.effective().sampling.temperature == 1.3
    assert emitted.chats == [store.chat] and emitted.saved == [], "a chat's own value is saved with the chat"


def test_max_tokens_changes_the_sampling_and_what_the_plan_reads(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.edit_chat(store.chat.with_sampling({"max_tokens": 99}, store.settings.sampling))
    assert emitted.sections == ["sampling", "plan"]


def test_the_system_prompt_and_policy_change_the_chat_section_and_the_plan(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.edit_chat(ChatSettings(system_prompt="Be brief.", window_policy=WindowPolicy.STOP_AT_LIMIT))
    assert emitted.sections == ["chat", "plan"]


def test_the_decoding_mode_is_part_of_the_sampling_section(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.edit_chat(ChatSettings(decoding=DecodingSettings(mode=DecodingMode.GREEDY)))
    assert emitted.sections == ["sampling"]


def test_model_monitor_and_appearance_changes_reach_their_own_section_and_are_saved(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.set_model({"n_ctx": 2048})
    store.set_monitor({"vram_percent": 50})
    store.set_defaults(replace(store.settings, appearance=Appearance(theme=Theme.DARK)))
    assert emitted.sections == ["model", "monitor", "appearance"]
    assert [saved.model.n_ctx for saved in emitted.saved] == [2048, 2048, 2048]
    assert emitted.saved[-1] == store.settings


def test_a_models_own_load_settings_reach_the_model_section_for_that_model_only(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.set_model({"n_ctx": 8192}, key="big.gguf")
    assert emitted.sections == ["model"]
    assert store.model_settings("big.gguf").n_ctx == 8192 and store.model_settings("other.gguf").n_ctx == 4096


def test_a_refused_value_changes_nothing_and_says_why(store: SettingsStore) -> None:
    emitted = Emitted(store)
    with pytest.raises(InvalidSetting, match="Context length"):
        store.set_model({"n_ctx": 1})
    assert emitted.sections == [] and emitted.saved == [] and store.settings == Settings()


def test_the_same_values_again_announce_nothing(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.set_defaults(Settings())
    store.edit_chat(ChatSettings())
    assert emitted.sections == [] and emitted.saved == [] and emitted.chats == []


def test_another_chat_on_show_brings_its_own_settings_without_saving_them(store: SettingsStore) -> None:
    emitted = Emitted(store)
    store.show_chat(ChatSettings(sampling={"temperature": 0.1}))
    assert emitted.sections == ["sampling"] and emitted.chats == [] and emitted.saved == []
    assert store.effective().sampling == SamplingParams(temperature=0.1)


def test_the_store_reads_the_settings_file_and_keeps_its_notices() -> None:
    path = app_paths().settings_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema_version": 3, "sampling": {"temperature": 0.4}, "model_overrides": {}}))
    store = SettingsStore.from_file(path)
    assert store.settings.sampling.temperature == 0.4 and store.notices == ()
