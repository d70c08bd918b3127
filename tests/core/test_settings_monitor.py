"""The monitor section of the settings: alert thresholds with bounds (0 turns one off), idle unload, degradation."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.core.inference.sampling import InvalidSetting
from app.core.monitor.alerts import AlertThresholds
from app.core.paths import app_paths
from app.core.settings import MONITOR_FIELDS, MonitorSettings, Settings, load_settings, save_settings


@pytest.fixture
def settings_file() -> Path:
    return app_paths().settings_file


def test_the_defaults_are_the_alerts_defaults_with_idle_unload_and_automatic_switching_off() -> None:
    monitor = Settings().monitor
    assert monitor.alert_thresholds() == AlertThresholds()
    assert monitor.idle_unload_minutes == 0 and monitor.switch_to_smaller_variant is False
    assert set(MONITOR_FIELDS) == set(AlertThresholds.__dataclass_fields__) | {"idle_unload_minutes"}


def test_every_alert_can_be_turned_off_with_zero() -> None:
    off = {name: 0 for name in MONITOR_FIELDS}
    thresholds = Settings().with_monitor(off).monitor.alert_thresholds()
    assert all(value == 0 for value in vars(thresholds).values())


def test_monitor_settings_survive_a_save_and_load(settings_file: Path) -> None:
    settings = Settings().with_monitor(
        {"vram_percent": 95, "idle_unload_minutes": 20, "switch_to_smaller_variant": True}
    )
    save_settings(settings_file, settings)
    loaded = load_settings(settings_file)
    assert loaded.notices == []
    assert loaded.settings.monitor == MonitorSettings(
        vram_percent=95.0, idle_unload_minutes=20, switch_to_smaller_variant=True
    )
    assert json.loads(settings_file.read_text())["monitor"]["vram_percent"] == 95.0


def test_a_value_out_of_bounds_is_refused_with_the_bounds() -> None:
    with pytest.raises(InvalidSetting, match=r"VRAM alert \(%\) must be between 0 and 100, not 120"):
        Settings().with_monitor({"vram_percent": 120})
    with pytest.raises(InvalidSetting, match=r"switch_to_smaller_variant must be true or false"):
        Settings().with_monitor({"switch_to_smaller_variant": "yes"})


@pytest.mark.expected_log("app.core.settings", logging.WARNING, r"Failed replies alert must be a whole number")
@pytest.mark.expected_log("app.core.settings", logging.WARNING, r"switch_to_smaller_variant must be true or false")
def test_a_bad_value_in_the_file_falls_back_to_its_default_with_a_notice(settings_file: Path) -> None:
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(
        json.dumps(
            {
                "schema_version": 3,
                "monitor": {"failed_replies": 2.5, "context_percent": 80, "switch_to_smaller_variant": "on"},
            }
        )
    )
    loaded = load_settings(settings_file)
    assert loaded.settings.monitor == MonitorSettings(context_percent=80.0)
    assert len(loaded.notices) == 2
