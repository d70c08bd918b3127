"""Changing the interface language says that it applies at the next start and offers Restart now, which
closes the window and starts Glassbox again the way it was started."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from app.core.settings import Language, Settings
from app.ui.shell import appearance_menu, restart
from app.ui.shell.appearance_menu import AppearanceMenus
from app.ui.widgets.error_banner import NoticeAction


def test_choosing_another_language_saves_it_and_offers_restart_now(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    saved: list[Settings] = []
    restarts: list[bool] = []
    notices: list[tuple[str, NoticeAction | None]] = []
    monkeypatch.setattr(appearance_menu.message, "info", lambda text, action=None: notices.append((text, action)))
    menus = AppearanceMenus(Settings, saved.append, lambda: restarts.append(True), window)
    menus.choose_language(Language.SIMPLIFIED_CHINESE)
    assert saved[-1].appearance.language is Language.SIMPLIFIED_CHINESE
    [(text, action)] = notices
    assert "starts again" in text
    assert action is not None and action.label == "&Restart now"
    action.run()
    assert restarts == [True]


def test_restart_now_closes_the_window_and_starts_the_same_command_once_the_application_quits(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[tuple[str, list[str], str]] = []
    fake = type("FakeProcess", (), {"startDetached": staticmethod(lambda *args: started.append(args))})
    monkeypatch.setattr(restart, "QProcess", fake)
    window = QMainWindow()
    qtbot.addWidget(window)
    window.show()
    restart.restart(window)
    assert not window.isVisible()
    assert started == [], "nothing starts before the application has quit (settings written, threads joined)"
    program, arguments = restart.restart_command()
    assert program == sys.executable and arguments == sys.orig_argv[1:]
