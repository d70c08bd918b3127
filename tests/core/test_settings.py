"""Typed settings: defaults, bounds, the JSON file, migration of older files, damaged files, per-chat settings."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.core.chat.context_window import WindowPolicy
from app.core.inference.sampling import InvalidSetting, SamplingParams
from app.core.memory.planner import ContextSettings
from app.core.paths import app_paths
from app.core.settings import (
    MODEL_FIELDS,
    SCHEMA_VERSION,
    Appearance,
    ChatSettings,
    Language,
    ModelSettings,
    Settings,
    SettingsError,
    Theme,
    effective,
    load_settings,
    read_appearance,
    save_settings,
)
from app.core.types.load import Speculative


@pytest.fixture
def settings_file() -> Path:
    return app_paths().settings_file


def test_a_missing_file_gives_the_defaults_without_a_notice(settings_file: Path) -> None:
    loaded = load_settings(settings_file)
    assert loaded.settings == Settings()
    assert loaded.notices == []


def test_settings_survive_a_save_and_load(settings_file: Path) -> None:
    settings = Settings(
        sampling=SamplingParams(temperature=0.2, seed=42, stop=("###",)),
        model=ModelSettings(n_ctx=8192, n_threads=4),
    ).with_preset("Story time", SamplingParams(temperature=1.3))
    save_settings(settings_file, settings)
    loaded = load_settings(settings_file)
    assert loaded.settings == settings
    assert loaded.notices == []
    assert json.loads(settings_file.read_text())["schema_version"] == SCHEMA_VERSION


def test_a_flat_schema_1_file_is_migrated_into_sections(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"temperature": 0.3, "n_ctx": 2048, "system_prompt": "Be brief.", "seed": 5}))
    loaded = load_settings(settings_file)
    assert loaded.settings.sampling.temperature == 0.3
    assert loaded.settings.sampling.seed == 5
    assert loaded.settings.model.n_ctx == 2048
    assert loaded.settings.chat.system_prompt == "Be brief."
    assert loaded.notices == []
    save_settings(settings_file, loaded.settings)
    assert json.loads(settings_file.read_text())["sampling"]["temperature"] == 0.3


@pytest.mark.expected_log("app.core.settings", logging.ERROR, "The settings file could not be read")
def test_a_damaged_file_is_kept_aside_and_the_defaults_are_used_with_a_message(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text('{"sampling": {"temperature": 0.3')
    loaded = load_settings(settings_file)
    assert loaded.settings == Settings()
    [notice] = loaded.notices
    assert "could not be read" in notice and "defaults are in use" in notice
    [kept] = settings_file.parent.glob("settings.json.damaged-*")
    assert kept.read_text() == '{"sampling": {"temperature": 0.3'


@pytest.mark.parametrize("content", ["[1, 2]", '"text"', '{"schema_version": "two"}', "\x00\xff"])
@pytest.mark.expected_log("app.core.settings", logging.ERROR, "The settings file could not be read")
def test_files_that_are_not_settings_are_reset_never_a_crash(settings_file: Path, content: str) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(content, errors="surrogateescape")
    loaded = load_settings(settings_file)
    assert loaded.settings == Settings() and loaded.notices


@pytest.mark.expected_log(
    "app.core.settings", logging.WARNING, r"Settings: Temperature must be between 0 and 2, not 9\."
)
@pytest.mark.expected_log(
    "app.core.settings", logging.WARNING, r"Settings: Context length must be between 256 and 131072, not 10\."
)
@pytest.mark.expected_log("app.core.settings", logging.WARNING, "Settings: Unknown window policy 'sideways'")
def test_out_of_bounds_values_fall_back_to_their_default_each_with_a_notice(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(
        json.dumps(
            {
                "schema_version": 2,
                "sampling": {"temperature": 9, "top_p": 0.5},
                "model": {"n_ctx": 10, "n_threads": 2},
                "chat": {"window_policy": "sideways"},
            }
        )
    )
    loaded = load_settings(settings_file)
    assert loaded.settings.sampling.temperature == SamplingParams().temperature
    assert loaded.settings.sampling.top_p == 0.5
    assert loaded.settings.model == ModelSettings(n_ctx=4096, n_threads=2)
    assert loaded.settings.chat.window_policy is WindowPolicy.ROLLING
    assert len(loaded.notices) == 3
    assert any("Temperature must be between 0 and 2" in n for n in loaded.notices)


@pytest.mark.expected_log("app.core.settings", logging.WARNING, r"written by a newer Glassbox \(schema 4\)")
def test_a_file_from_a_newer_version_is_read_and_its_unknown_parts_are_kept(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    newer = {"schema_version": SCHEMA_VERSION + 1, "sampling": {"top_k": 7}, "telemetry": {"opt_in": False}}
    settings_file.write_text(json.dumps(newer))
    loaded = load_settings(settings_file)
    assert loaded.settings.sampling.top_k == 7
    assert "newer Glassbox" in loaded.notices[0]
    save_settings(settings_file, loaded.settings)
    assert json.loads(settings_file.read_text())["telemetry"] == {"opt_in": False}
    backup = settings_file.with_name(f"settings.json.schema-{SCHEMA_VERSION + 1}.bak")
    assert json.loads(backup.read_text()) == newer


@pytest.mark.expected_log("app.core.settings", logging.ERROR, r"Could not save settings to .*settings\.json")
def test_saving_into_an_unwritable_place_raises_a_readable_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    with pytest.raises(SettingsError, match=r"could not be saved.*writable"):
        save_settings(blocker / "settings.json", Settings())


def test_model_fields_have_bounds_and_explanations() -> None:
    assert set(MODEL_FIELDS) == {
        "n_ctx",
        "n_threads",
        "speculative",
        "draft_model",
        "mmproj",
        "flash_attn",
        "type_k",
        "type_v",
        "n_batch",
        "n_ubatch",
        "use_mmap",
        "use_mlock",
        "rope_freq_base",
        "rope_freq_scale",
        "rope_scaling",
        "reasoning",
        "chat_template",
    }
    assert all(spec.explanation.endswith("Applies when the model is loaded again.") for spec in MODEL_FIELDS.values())
    with pytest.raises(InvalidSetting, match="Context length must be between 256"):
        MODEL_FIELDS["n_ctx"].check(100)
    with pytest.raises(InvalidSetting, match="K cache type must be one of f16, q8_0, q4_0, not 'q2'"):
        MODEL_FIELDS["type_k"].check("q2")
    with pytest.raises(InvalidSetting, match="Flash attention must be on or off"):
        MODEL_FIELDS["flash_attn"].check(1)


def test_the_load_options_reach_the_load_and_the_memory_plan(settings_file: Path) -> None:
    model = ModelSettings(
        n_threads=3, speculative="off", flash_attn=True, type_k="q8_0", type_v="q4_0", n_batch=256, n_ubatch=128
    )
    save_settings(settings_file, Settings(model=model))
    loaded = load_settings(settings_file).settings.model
    assert loaded == model
    config = loaded.load_config(Path("m.gguf"))
    assert (config.n_threads, config.speculative, config.flash_attn) == (3, Speculative.OFF, True)
    assert (config.type_k, config.type_v, config.n_batch, config.n_ubatch) == ("q8_0", "q4_0", 256, 128)
    assert loaded.context_settings() == ContextSettings(4096, 128, "q8_0", "q4_0", flash_attn=True)
    assert ModelSettings().load_config(Path("m.gguf")).n_threads is None  # 0: one per physical core


def test_options_that_do_not_go_together_are_refused_with_the_reason() -> None:
    with pytest.raises(InvalidSetting, match="q8_0 V cache needs flash attention"):
        Settings().with_model({"type_v": "q8_0"})
    with_flash = Settings().with_model({"flash_attn": True, "type_v": "q8_0"})
    assert with_flash.model.type_v == "q8_0"
    with pytest.raises(InvalidSetting, match="V cache needs flash attention"):
        with_flash.with_model({"flash_attn": False})


def test_a_chat_uses_its_own_values_and_the_defaults_for_the_rest() -> None:
    defaults = Settings(sampling=SamplingParams(temperature=0.5, top_k=10))
    chat = ChatSettings(system_prompt="Talk like a pirate.", window_policy=WindowPolicy.TRUNCATE_MIDDLE)
    chat = chat.with_sampling({"temperature": 1.2}, defaults.sampling)
    used = effective(defaults, chat)
    assert (used.sampling.temperature, used.sampling.top_k) == (1.2, 10)
    assert used.system_prompt == "Talk like a pirate."
    assert used.window_policy is WindowPolicy.TRUNCATE_MIDDLE
    assert effective(defaults, ChatSettings()).window_policy is WindowPolicy.ROLLING


def test_a_chat_value_equal_to_the_default_is_not_an_override() -> None:
    defaults = SamplingParams()
    chat = ChatSettings().with_sampling({"temperature": 1.2}, defaults).with_sampling({"temperature": 0.7}, defaults)
    assert chat.sampling == {}


@pytest.mark.expected_log(
    "app.core.settings", logging.WARNING, r"Chat setting dropped: Temperature must be between 0 and 2, not 99\."
)
def test_chat_settings_read_from_the_database_drop_what_they_cannot_use() -> None:
    chat = ChatSettings.from_dict({"sampling": {"temperature": 99, "top_k": 5, "bogus": 1}, "window_policy": "?"})
    assert chat == ChatSettings(sampling={"top_k": 5})
    assert ChatSettings.from_dict(chat.to_dict()) == chat


def test_a_chats_tools_are_on_until_switched_off_and_the_choice_is_saved_with_the_chat() -> None:
    chat = ChatSettings(tool_servers=("time",))
    assert chat.tool_on("time", "get_current_time") and chat.tool_on("time", "a_tool_added_later")
    off = chat.with_tool("time", "convert_time", False)
    assert off.tools_off == (("time", "convert_time"),) and not off.tool_on("time", "convert_time")
    assert off.with_tool("time", "convert_time", False) == off  # switched off once
    assert off.to_dict()["tools_off"] == [{"server": "time", "tool": "convert_time"}]
    assert ChatSettings.from_dict(off.to_dict()) == off
    assert off.with_tool("time", "convert_time", True) == chat
    assert "tools_off" not in chat.to_dict()


def test_tools_switched_off_read_from_the_database_keep_only_server_and_tool_pairs() -> None:
    entries = [
        {"server": "time", "tool": "convert_time"},
        {"server": "time", "tool": "convert_time"},
        {"server": "time"},
        {"server": "", "tool": "x"},
        {"server": 3, "tool": "x"},
        ["git", "git_log"],
        "time",
    ]
    assert ChatSettings.from_dict({"tools_off": entries}).tools_off == (("time", "convert_time"),)
    assert ChatSettings.from_dict({"tools_off": "convert_time"}).tools_off == ()
    assert ChatSettings.from_dict({}).tools_off == ()


def test_user_presets_need_a_name_that_is_not_a_built_in_one() -> None:
    settings = Settings()
    with pytest.raises(InvalidSetting, match="built-in"):
        settings.with_preset("creative", SamplingParams())
    with pytest.raises(InvalidSetting, match="needs a name"):
        settings.with_preset("   ", SamplingParams())
    saved = settings.with_preset("  My   preset ", SamplingParams(temperature=0.9))
    assert saved.preset_values("My preset")["temperature"] == 0.9
    assert "My preset" not in saved.without_preset("My preset").presets
    assert saved.preset_values("Precise")["temperature"] == 0.2


def test_gpu_layers_are_a_model_setting_saved_with_the_others(settings_file: Path) -> None:
    settings = Settings(model=ModelSettings(n_ctx=2048, n_threads=4, n_gpu_layers=20))
    save_settings(settings_file, settings)
    saved = json.loads(settings_file.read_text())["model"]
    assert (saved["n_ctx"], saved["n_threads"], saved["n_gpu_layers"]) == (2048, 4, 20)
    assert load_settings(settings_file).settings.model == settings.model


def test_a_schema_2_file_is_migrated_to_no_gpu_layers_as_that_version_loaded_every_model(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"schema_version": 2, "model": {"n_ctx": 2048, "n_threads": 2}}))
    loaded = load_settings(settings_file)
    assert loaded.settings.model == ModelSettings(n_ctx=2048, n_threads=2, n_gpu_layers=0)
    assert loaded.notices == []
    save_settings(settings_file, loaded.settings)
    assert json.loads(settings_file.read_text())["schema_version"] == SCHEMA_VERSION == 3


@pytest.mark.expected_log(
    "app.core.settings", logging.WARNING, r"Settings: GPU layers must be between 0 and 1024, not -5\."
)
def test_gpu_layers_out_of_bounds_in_the_file_fall_back_to_none_with_a_notice(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"schema_version": 3, "model": {"n_gpu_layers": -5}}))
    loaded = load_settings(settings_file)
    assert loaded.settings.model.n_gpu_layers == 0
    [notice] = loaded.notices
    assert "GPU layers must be between 0" in notice


def test_changing_model_settings_checks_each_value_against_its_bounds() -> None:
    settings = Settings().with_model({"n_ctx": "2048", "n_gpu_layers": 12})
    assert (settings.model.n_ctx, settings.model.n_gpu_layers) == (2048, 12)
    with pytest.raises(InvalidSetting, match="GPU layers must be between 0"):
        settings.with_model({"n_gpu_layers": -1})
    with pytest.raises(InvalidSetting, match="no model setting"):
        settings.with_model({"n_batches": 512})


DAMAGED_SHAPES = {
    "a list nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "objects nested 100,000 deep": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "a section nested deeper than settings are": json.dumps(
        {"schema_version": 3, "extra": [[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}
    ).encode(),
    "a list at the top": b"[1, 2, 3]",
    "a number at the top": b"42",
    "a whole number of 5,000 digits": b'{"schema_version": 3, "model": {"n_ctx": ' + b"9" * 5000 + b"}}",
    "a whole number too large for a float": json.dumps({"schema_version": 3, "model": {"n_ctx": 10**400}}).encode(),
    "a schema version that is true": b'{"schema_version": true}',
    "bytes that are not UTF-8": b'{"chat": {"system_prompt": "\xff\xfe"}}',
}


@pytest.mark.parametrize("content", DAMAGED_SHAPES.values(), ids=DAMAGED_SHAPES.keys())
@pytest.mark.expected_log("app.core.settings", logging.ERROR, "The settings file could not be read")
def test_a_damaged_file_of_any_shape_is_set_aside_never_a_crash(settings_file: Path, content: bytes) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(content)
    loaded = load_settings(settings_file)
    assert loaded.settings == Settings()
    [notice] = loaded.notices
    assert "defaults are in use" in notice
    [kept] = settings_file.parent.glob("settings.json.damaged-*")
    assert kept.read_bytes() == content
    save_settings(settings_file, loaded.settings)
    assert load_settings(settings_file).notices == []


@pytest.mark.expected_log("app.core.settings", logging.ERROR, "The settings file could not be read")
def test_a_folder_where_the_settings_file_should_be_is_set_aside(settings_file: Path) -> None:
    (settings_file / "inside").mkdir(parents=True)
    loaded = load_settings(settings_file)
    assert loaded.settings == Settings() and "kept as" in loaded.notices[0]
    [kept] = settings_file.parent.glob("settings.json.damaged-*")
    assert (kept / "inside").is_dir()
    save_settings(settings_file, loaded.settings)
    assert load_settings(settings_file).notices == []


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
@pytest.mark.expected_log("app.core.settings", logging.WARNING, r"Settings: .*Temperature must be a number")
def test_values_that_are_not_finite_fall_back_to_their_default(settings_file: Path, value: str) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(f'{{"schema_version": 3, "sampling": {{"temperature": {value}, "top_p": 0.5}}}}')
    loaded = load_settings(settings_file)
    assert loaded.settings.sampling.temperature == SamplingParams().temperature
    assert loaded.settings.sampling.top_p == 0.5


@pytest.mark.expected_log("app.core.settings", logging.ERROR, "could not be set aside")
def test_a_deep_file_that_cannot_be_set_aside_is_overwritten_by_the_next_save(
    settings_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(b"[" * 100_000 + b"]" * 100_000)

    def refuse(self: Path, target: Path) -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "replace", refuse)
    loaded = load_settings(settings_file)
    assert "will be overwritten" in loaded.notices[0]
    monkeypatch.undo()
    save_settings(settings_file, loaded.settings)
    assert load_settings(settings_file).settings == Settings()


def test_the_language_and_theme_are_saved_with_the_settings(settings_file: Path) -> None:
    settings = Settings(appearance=Appearance(language=Language.SIMPLIFIED_CHINESE, theme=Theme.DARK))
    save_settings(settings_file, settings)
    assert load_settings(settings_file).settings.appearance == settings.appearance
    assert read_appearance(settings_file) == settings.appearance
    assert json.loads(settings_file.read_text())["appearance"] == {"language": "zh_CN", "theme": "dark"}


def test_a_file_without_an_appearance_section_follows_the_system(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(json.dumps({"schema_version": SCHEMA_VERSION, "model": {"n_ctx": 2048}}))
    loaded = load_settings(settings_file)
    assert loaded.settings.appearance == Appearance(Language.SYSTEM, Theme.SYSTEM)
    assert loaded.notices == []


@pytest.mark.expected_log("app.core.settings", logging.WARNING, r"Unknown (interface language|theme)")
def test_an_unknown_language_or_theme_falls_back_to_the_system_with_a_notice(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(json.dumps({"appearance": {"language": "tlh", "theme": ["dark"]}, "schema_version": 3}))
    loaded = load_settings(settings_file)
    assert loaded.settings.appearance == Appearance()
    assert len(loaded.notices) == 2


def test_reading_the_appearance_of_a_damaged_file_gives_the_defaults_and_leaves_the_file_alone(
    settings_file: Path,
) -> None:
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_bytes(b"{not json")
    assert read_appearance(settings_file) == Appearance()
    assert settings_file.read_bytes() == b"{not json"  # load_settings sets it aside and says so, later
