"""The tools always allowed: kept per MCP server and tool in the settings file, so they hold after a restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.paths import app_paths
from app.core.settings import Settings, load_settings, save_settings


@pytest.fixture
def settings_file() -> Path:
    return app_paths().settings_file


def test_a_tool_always_allowed_is_kept_per_server_and_tool_across_a_save_and_load(settings_file: Path) -> None:
    settings = Settings().with_tool_always_allowed("time", "get_current_time").with_tool_always_allowed("git", "log")
    save_settings(settings_file, settings)
    loaded = load_settings(settings_file)
    assert loaded.settings.tools_always_allowed == (("time", "get_current_time"), ("git", "log"))
    assert loaded.notices == []


def test_allowing_twice_keeps_one_and_taking_back_asks_again_for_that_tool_only() -> None:
    settings = Settings().with_tool_always_allowed("time", "now").with_tool_always_allowed("time", "now")
    settings = settings.with_tool_always_allowed("other", "now")
    assert settings.tools_always_allowed == (("time", "now"), ("other", "now"))
    assert settings.without_tool_always_allowed("time", "now").tools_always_allowed == (("other", "now"),)
    assert settings.without_tool_always_allowed("time", "gone") == settings


def test_entries_of_another_shape_are_not_taken_as_allowed(settings_file: Path) -> None:
    entries = [{"server": "time", "tool": "now"}, {"server": "time"}, {"server": "", "tool": "x"}, ["time", "x"], 3]
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(json.dumps({"schema_version": 3, "tools_always_allowed": entries}), encoding="utf-8")
    assert load_settings(settings_file).settings.tools_always_allowed == (("time", "now"),)
    settings_file.write_text(json.dumps({"schema_version": 3, "tools_always_allowed": "all"}), encoding="utf-8")
    assert load_settings(settings_file).settings.tools_always_allowed == ()
