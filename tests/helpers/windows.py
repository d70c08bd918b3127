"""Opening the main window in a test: one factory, `open_main_window`, and the `window` fixture built on it.

A module whose tests share one kind of window says how it opens with a mark, instead of a fixture of
its own: `pytestmark = pytest.mark.window(greedy_tokens=8)`. pytest-qt closes every window opened here
(and joins its threads) when the test ends.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pytest
from pytestqt.qtbot import QtBot

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.ui.llm.worker import LlmThread
    from app.ui.shell.main_window import MainWindow

WINDOW_LOAD_TIMEOUT_MS = 120_000  # a busy two-core machine can take a while


class WindowOpener(Protocol):
    def __call__(
        self,
        llm: LlmThread | None = None,
        *,
        greedy_tokens: int | None = None,
        settings: Settings | None = None,
        active: bool = False,
    ) -> MainWindow: ...


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "window(greedy_tokens=None, settings=None, active=False): how the `window` fixture opens the main window "
        "(the keywords of open_main_window)",
    )


@pytest.fixture
def open_main_window(qtbot: QtBot, starter_model: Path) -> WindowOpener:
    """`open_main_window(llm=None, *, greedy_tokens=None, settings=None, active=False)` shows a main window and
    waits until its model (the starter) has loaded.

    llm: the window's model worker instead of its own; settings: saved before the window opens (it reads
    them at start); greedy_tokens: every chat of the window, a new one too, replies greedily with at most this
    many tokens (the settings' sampling defaults);
    active: it is the active window, for tests that press keys or follow the focus.
    """

    def open_window(
        llm: LlmThread | None = None,
        *,
        greedy_tokens: int | None = None,
        settings: Settings | None = None,
        active: bool = False,
    ) -> MainWindow:
        # Qt and the app only for the tests that open a window
        from app.core.inference.sampling import GREEDY
        from app.core.paths import app_paths
        from app.core.settings import load_settings, save_settings
        from app.ui.shell.main_window import MainWindow

        settings_file = app_paths().ensure().settings_file
        if greedy_tokens is not None:  # the sampling defaults, so that every chat of the window has them, new ones too
            saved = settings or load_settings(settings_file).settings
            settings = replace(saved, sampling=replace(GREEDY, max_tokens=greedy_tokens))
        if settings is not None:
            save_settings(settings_file, settings)
        main = MainWindow(llm=llm)
        qtbot.addWidget(main)
        main.show()
        qtbot.waitUntil(lambda: main.state.loaded_model is not None, timeout=WINDOW_LOAD_TIMEOUT_MS)
        if active:
            main.activateWindow()
            qtbot.waitUntil(main.isActiveWindow)
        return main

    return open_window


@pytest.fixture
def window(request: pytest.FixtureRequest, open_main_window: WindowOpener) -> MainWindow:
    """The main window with the starter model loaded, opened as the test's `window` mark says."""
    mark = request.node.get_closest_marker("window")
    return open_main_window(**(mark.kwargs if mark is not None else {}))
