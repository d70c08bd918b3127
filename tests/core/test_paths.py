"""Where Glassbox keeps its files: one home for all with GLASSBOX_HOME, the cache alone moved by GLASSBOX_CACHE."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.paths import app_paths


def test_the_home_holds_every_folder_and_the_cache_can_be_moved_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GLASSBOX_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GLASSBOX_CACHE")
    paths = app_paths()
    assert {paths.config, paths.data, paths.cache, paths.logs} == {
        tmp_path / "home" / name for name in ("config", "data", "cache", "logs")
    }
    monkeypatch.setenv("GLASSBOX_CACHE", str(tmp_path / "shared"))
    moved = app_paths()
    assert moved.cache == tmp_path / "shared" and moved.data == paths.data and moved.config == paths.config
