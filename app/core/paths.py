"""Where Glassbox keeps its files: platformdirs locations, overridable for tests and portable installs.

Set `GLASSBOX_HOME` to put every folder under one directory (tests and the packaged
smoke test do this so they never touch the user's real data). `GLASSBOX_CACHE` moves the
cache folder alone (what can be found again, such as remembered batch probes): the test
suite shares one across its tests, each with a home of its own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs

APP_NAME = "Glassbox"
APP_AUTHOR = "Glassbox"


@dataclass(frozen=True)
class AppPaths:
    """The folders Glassbox writes to. Call `ensure()` before writing."""

    config: Path
    data: Path
    cache: Path
    logs: Path

    @property
    def models(self) -> Path:
        return self.data / "models"

    @property
    def chats_db(self) -> Path:
        return self.data / "chats.sqlite3"

    @property
    def settings_file(self) -> Path:
        return self.config / "settings.json"

    @property
    def downloads(self) -> Path:
        """Partial downloads live here until verified, then move into `models`."""
        return self.data / "downloads"

    def ensure(self) -> AppPaths:
        for folder in (self.config, self.data, self.cache, self.logs, self.models, self.downloads):
            folder.mkdir(parents=True, exist_ok=True)
        return self


def app_paths() -> AppPaths:
    """The folders for this process, honouring `GLASSBOX_HOME` and `GLASSBOX_CACHE`."""
    home = os.environ.get("GLASSBOX_HOME")
    if home:
        root = Path(home)
        paths = AppPaths(config=root / "config", data=root / "data", cache=root / "cache", logs=root / "logs")
    else:
        paths = AppPaths(
            config=Path(platformdirs.user_config_dir(APP_NAME, APP_AUTHOR)),
            data=Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR)),
            cache=Path(platformdirs.user_cache_dir(APP_NAME, APP_AUTHOR)),
            logs=Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR)),
        )
    cache = os.environ.get("GLASSBOX_CACHE")
    return replace(paths, cache=Path(cache)) if cache else paths


def resources_dir() -> Path:
    """The `resources/` folder, in a source checkout or inside a PyInstaller bundle."""
    import sys

    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"
