"""Restart now: the window closes with its ordered exit, and Glassbox starts again the way it was started."""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QCoreApplication, QProcess
from PySide6.QtWidgets import QWidget


def restart_command() -> tuple[str, list[str]]:
    """The program and arguments that started this Glassbox (a bundle's executable, else this interpreter
    with the same options and module or script)."""
    if getattr(sys, "frozen", False):
        return sys.executable, sys.argv[1:]
    return sys.executable, list(sys.orig_argv[1:])


def restart(window: QWidget) -> None:
    """Close `window`; once the application has quit (settings written, threads joined), start it again."""
    app = QCoreApplication.instance()
    if app is None:
        return
    program, arguments = restart_command()
    folder, start = os.getcwd(), QProcess.startDetached
    app.aboutToQuit.connect(lambda: start(program, arguments, folder))
    window.close()
