"""The suite's setup: an isolated home per test; the plugins in tests/helpers and tests/fakes do the rest."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_DISABLE_XET", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

pytest_plugins = [
    "tests.helpers.logfail",
    "tests.helpers.qt_threads",
    "tests.helpers.threads",
    "tests.helpers.watchdog",
    "tests.helpers.models",
    "tests.helpers.vision",
    "tests.helpers.windows",
    "tests.fakes.fake_hub",
    "tests.fakes.memory_keyring",
]


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the session's tests: what is kept there can be found again, and is (the batch
    probe of each way the starter loads is found once, not at each of hundreds of loads)."""
    return tmp_path_factory.mktemp("glassbox-cache")


@pytest.fixture(autouse=True)
def isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, shared_cache: Path
) -> Path:
    """Every test gets its own GLASSBOX_HOME, so nothing touches the user's real files; the cache is shared."""
    home = tmp_path_factory.mktemp("glassbox-home")
    monkeypatch.setenv("GLASSBOX_HOME", str(home))
    monkeypatch.setenv("GLASSBOX_CACHE", str(shared_cache))
    return home


@pytest.fixture(autouse=True, scope="session")
def engines_forked_from_a_forkserver() -> None:
    """The suite starts hundreds of engine processes in its own processes: forked from one interpreter
    that imported llama.cpp once instead of spawned fresh (child_process.py). The app's own spawn is
    what the command-line tests' subprocesses, tests/core/support/test_child_process.py and the
    bundle use."""
    from app.core.support.child_process import start_children_by

    start_children_by("forkserver")


@pytest.fixture(autouse=True, scope="session")
def english_locale() -> None:
    """Numbers and dates as the English interface shows them (the application sets this default at start)."""
    from PySide6.QtCore import QLocale

    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
