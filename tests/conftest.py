"""Shared fixtures: an isolated home per test, the real starter model, and a thread-leak guard."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_DISABLE_XET", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

from app.core.inference.engine import Engine, LoadConfig  # noqa: E402

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from app.ui.shell.main_window import MainWindow

WINDOW_LOAD_TIMEOUT_MS = 120_000  # a busy two-core machine can take a while
from app.core.models.starter import find_starter_model  # noqa: E402


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own GLASSBOX_HOME, so nothing touches the user's real files."""
    home = tmp_path_factory.mktemp("glassbox-home")
    monkeypatch.setenv("GLASSBOX_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Fail a test that leaves a Python thread or a Glassbox QThread running."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2.0
    leaked: list[str] = []
    while time.monotonic() < deadline:
        leaked = [t.name for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
        leaked += _running_qthreads()
        if not leaked:
            return
        time.sleep(0.05)
    pytest.fail(f"test left threads running: {leaked}")


def _running_qthreads() -> list[str]:
    import sys

    if "app.ui.threads" not in sys.modules:
        return []
    from app.ui.threads import running_threads

    return [f"QThread {name}" for name in running_threads()]


def open_main_window(qtbot: "QtBot", llm: object | None = None) -> "MainWindow":
    """Show a main window and wait until its model (the starter, by default) has loaded."""
    from app.ui.shell.main_window import MainWindow

    main = MainWindow(llm=llm)  # type: ignore[arg-type]
    qtbot.addWidget(main)
    main.show()
    qtbot.waitUntil(lambda: main.loaded_model is not None, timeout=WINDOW_LOAD_TIMEOUT_MS)
    return main


@pytest.fixture(scope="session")
def starter_model() -> Path:
    path = find_starter_model()
    if path is None:
        pytest.fail("the starter model is missing: install the project with the [starter] extra")
    return path


@pytest.fixture(scope="session")
def engine(starter_model: Path) -> Iterator[Engine]:
    """One loaded starter model shared by the tests that only read from it or generate."""
    shared = Engine()
    shared.load(LoadConfig(starter_model, n_ctx=2048))
    yield shared
    shared.close()
