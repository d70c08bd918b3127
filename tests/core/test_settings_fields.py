"""Each setting is declared once, with its bounds; the field tables, the load config, the alert thresholds
and each model's own load settings are derived from those declarations; files of the older shape load as before."""

from __future__ import annotations

import json
import logging
from dataclasses import fields
from pathlib import Path

import pytest

from app.core.chat.context_window import WindowPolicy
from app.core.inference.sampling import SAMPLING_FIELDS, InvalidSetting, SamplingParams
from app.core.monitor.alerts import AlertThresholds
from app.core.paths import app_paths
from app.core.settings import (
    GPU_LAYERS_FIELD,
    LOAD_FIELDS,
    MODEL_FIELDS,
    MONITOR_FIELDS,
    MONITOR_SWITCHES,
    TEMPLATE_TEXT_FIELD,
    ChatDefaults,
    ModelSettings,
    MonitorSettings,
    Settings,
    load_settings,
    save_settings,
)
from app.core.types.load import LoadConfig, Speculative

# A settings file as the Glassbox before per-model load settings wrote it (schema 3, every section).
OLD_FILE = {
    "schema_version": 3,
    "sampling": {"temperature": 0.3, "top_k": 12, "seed": 7, "stop": ["###"]},
    "model": {"n_ctx": 2048, "n_threads": 4, "n_gpu_layers": 12, "flash_attn": True, "type_v": "q8_0"},
    "chat": {"system_prompt": "Be brief.", "window_policy": "truncate_middle"},
    "presets": {"Mine": {"temperature": 1.2}},
    "servers": [],
    "appearance": {"language": "en", "theme": "dark"},
    "monitor": {"vram_percent": 80.0, "swap_growth_mib": 512, "switch_to_smaller_variant": True},
}


@pytest.fixture
def settings_file() -> Path:
    app_paths().settings_file.parent.mkdir(parents=True, exist_ok=True)
    return app_paths().settings_file


def test_the_field_tables_are_the_dataclass_fields_in_their_order() -> None:
    assert list(SAMPLING_FIELDS) == [item.name for item in fields(SamplingParams)]
    assert list(LOAD_FIELDS) == [item.name for item in fields(ModelSettings)]
    assert set(MODEL_FIELDS) == set(LOAD_FIELDS) - {"n_gpu_layers", "chat_template_text"}
    assert GPU_LAYERS_FIELD.name == "n_gpu_layers" and TEMPLATE_TEXT_FIELD.name == "chat_template_text"
    assert [*MONITOR_FIELDS, *MONITOR_SWITCHES] == [item.name for item in fields(MonitorSettings)]
    assert all(spec.name == name for name, spec in {**SAMPLING_FIELDS, **LOAD_FIELDS, **MONITOR_FIELDS}.items())


def test_the_bounds_checked_are_the_declared_ones() -> None:
    top = SAMPLING_FIELDS["temperature"].maximum
    with pytest.raises(InvalidSetting, match="between 0 and 2"):
        SamplingParams().with_values({"temperature": top + 0.1})
    with pytest.raises(InvalidSetting, match=f"between {LOAD_FIELDS['n_ctx'].minimum:g}"):
        Settings().with_model({"n_ctx": LOAD_FIELDS["n_ctx"].minimum - 1})
    with pytest.raises(InvalidSetting, match="between 0 and 50"):
        Settings().with_monitor({"ram_available_percent": MONITOR_FIELDS["ram_available_percent"].maximum + 1})


def test_the_load_config_has_the_model_fields_and_their_defaults() -> None:
    assert {item.name for item in fields(LoadConfig)} == {"model_path", *LOAD_FIELDS}
    assert ModelSettings().load_config(Path("m.gguf")) == LoadConfig(Path("m.gguf"))
    config = ModelSettings(n_threads=3, speculative="off", draft_model="/d.gguf", n_ubatch=64).load_config(Path())
    assert (config.n_threads, config.speculative, config.draft_model, config.n_ubatch) == (
        3,
        Speculative.OFF,
        Path("/d.gguf"),
        64,
    )


def test_the_alert_thresholds_are_the_monitor_settings_alert_fields() -> None:
    monitor = Settings().with_monitor({"vram_percent": 70, "failed_replies": 5, "idle_unload_minutes": 9}).monitor
    thresholds = monitor.alert_thresholds()
    assert type(thresholds) is AlertThresholds
    assert (thresholds.vram_percent, thresholds.failed_replies) == (70.0, 5)
    assert {item.name for item in fields(AlertThresholds)} <= set(MONITOR_FIELDS)


def test_a_models_own_load_settings_apply_to_that_model_only() -> None:
    settings = Settings().with_model({"n_ctx": 8192, "flash_attn": True}, key="big.gguf")
    assert settings.model_for("big.gguf").n_ctx == 8192 and settings.model_for("big.gguf").flash_attn
    assert settings.model_for("small.gguf") == settings.model == ModelSettings()
    changed_default = settings.with_model({"n_threads": 2})
    assert changed_default.model_for("big.gguf").n_threads == 2, "what a model does not set follows the default"
    back = settings.with_model({"n_ctx": 4096, "flash_attn": False}, key="big.gguf")
    assert back.model_overrides == {}, "values equal to the default stop being the model's own"


def test_a_models_own_load_settings_are_checked_by_the_same_fields() -> None:
    with pytest.raises(InvalidSetting, match="Context length must be between"):
        Settings().with_model({"n_ctx": 10}, key="big.gguf")
    with pytest.raises(InvalidSetting, match="needs flash attention"):
        Settings().with_model({"type_v": "q8_0"}, key="big.gguf")


def test_a_models_own_load_settings_survive_a_save_and_load(settings_file: Path) -> None:
    settings = Settings().with_model({"n_ctx": 8192, "n_gpu_layers": 20}, key="big.gguf")
    save_settings(settings_file, settings)
    loaded = load_settings(settings_file)
    assert loaded.notices == [] and loaded.settings == settings
    assert json.loads(settings_file.read_text())["model_overrides"] == {"big.gguf": {"n_ctx": 8192, "n_gpu_layers": 20}}


@pytest.mark.expected_log("app.core.settings", logging.WARNING, "Context length must be between")
def test_a_bad_value_in_a_models_own_settings_follows_the_default_with_a_notice(settings_file: Path) -> None:
    settings_file.write_text(json.dumps({**OLD_FILE, "model_overrides": {"big.gguf": {"n_ctx": 5, "n_threads": 2}}}))
    loaded = load_settings(settings_file)
    assert loaded.settings.model_for("big.gguf").n_ctx == 2048 and loaded.settings.model_for("big.gguf").n_threads == 2
    assert any("big.gguf" in notice and "Context length" in notice for notice in loaded.notices)


def test_a_file_of_the_older_shape_loads_unchanged_and_is_written_back_with_the_same_values(
    settings_file: Path,
) -> None:
    settings_file.write_text(json.dumps(OLD_FILE))
    loaded = load_settings(settings_file)
    assert loaded.notices == []
    settings = loaded.settings
    assert settings.sampling == SamplingParams(temperature=0.3, top_k=12, seed=7, stop=("###",))
    assert settings.model == ModelSettings(n_ctx=2048, n_threads=4, n_gpu_layers=12, flash_attn=True, type_v="q8_0")
    assert settings.model_overrides == {} and settings.model_for("any.gguf") == settings.model
    assert settings.chat == ChatDefaults("Be brief.", WindowPolicy.TRUNCATE_MIDDLE)
    assert settings.presets == {"Mine": SamplingParams(temperature=1.2)}
    assert settings.monitor == MonitorSettings(vram_percent=80.0, swap_growth_mib=512, switch_to_smaller_variant=True)
    save_settings(settings_file, settings)
    assert load_settings(settings_file).settings == settings
