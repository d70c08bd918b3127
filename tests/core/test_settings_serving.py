"""The serving section of the settings: how many replies the window's API server writes at once."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.core.inference.sampling import InvalidSetting
from app.core.inference.slots import MAX_SLOTS
from app.core.paths import app_paths
from app.core.settings import ServingSettings, Settings, load_settings, save_settings


@pytest.fixture
def settings_file() -> Path:
    return app_paths().ensure().settings_file


def test_by_default_the_memory_plan_chooses_the_parallel_replies() -> None:
    assert Settings().serving == ServingSettings(parallel=0)


def test_the_parallel_replies_survive_a_save_and_load(settings_file: Path) -> None:
    save_settings(settings_file, Settings().with_serving({"parallel": 3}))
    loaded = load_settings(settings_file)
    assert loaded.notices == [] and loaded.settings.serving.parallel == 3
    assert json.loads(settings_file.read_text())["serving"] == {"parallel": 3}


def test_a_count_beyond_the_slots_is_refused_by_name() -> None:
    with pytest.raises(InvalidSetting, match="Parallel replies"):
        Settings().with_serving({"parallel": MAX_SLOTS + 1})


@pytest.mark.expected_log("app.core.settings", logging.WARNING, "Parallel replies must be a number")
def test_a_bad_count_in_the_file_falls_back_to_auto_with_a_notice(settings_file: Path) -> None:
    settings_file.write_text(json.dumps({"schema_version": 3, "serving": {"parallel": "many"}}))
    loaded = load_settings(settings_file)
    assert loaded.settings.serving.parallel == 0
    assert len(loaded.notices) == 1 and "Parallel replies" in loaded.notices[0]
