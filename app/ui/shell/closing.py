"""The window's ordered exit: every stop and cancel flag first, then "Closing…", then wait, then close what is left."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QProgressBar, QToolBar

from app.ui.threads import WorkerThread, wait_keeping_events


def _nothing() -> None:
    return None


def _no_threads() -> Iterable[WorkerThread]:
    return ()


@dataclass(frozen=True)
class ExitPart:
    """What one part of the window does at exit: ask it to stop (never waits), its threads to wait for, then end it."""

    stop: Callable[[], object] = _nothing
    threads: Callable[[], Iterable[WorkerThread]] = _no_threads
    end: Callable[[], object] = _nothing


class OrderedExit(QObject):
    """Exit that never aborts and never loses a token.

    Every part is asked to stop first, in the order the parts were added; the window then says
    "Closing…" with its controls disabled, and waits for their threads while it goes on handling
    events, so the tokens a reply still makes meanwhile are shown and saved; then each part is
    ended, in the same order (the chat storage, say, only once the LLM thread has ended).
    """

    def __init__(self, window: QMainWindow, status: QLabel, progress: QProgressBar) -> None:
        super().__init__(window)
        self.window = window
        self.status = status
        self.progress = progress
        self.parts: list[ExitPart] = []

    def add(self, part: ExitPart) -> None:
        self.parts.append(part)

    def run(self) -> None:
        for part in self.parts:
            part.stop()
        self._show_closing()
        wait_keeping_events([thread for part in self.parts for thread in part.threads()])
        for part in self.parts:
            part.end()

    def _show_closing(self) -> None:
        self.status.setText(self.tr("Closing…"))
        self.progress.hide()
        window = self.window
        bars = [*window.findChildren(QToolBar), window.menuBar()]
        for part in (window.centralWidget(), *bars, *window.findChildren(QDockWidget)):
            if part is not None:
                part.setEnabled(False)
