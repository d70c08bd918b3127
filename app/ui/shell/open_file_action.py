"""Open file…: add a .gguf file from this computer to the library where it is, then load it.

The file is checked on a worker thread (`app.ui.models.open_file`); the window places the
action beside the model picker and first in Tools, and wires what the opener reports.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar, QWidget

from app.core.paths import app_paths
from app.ui.models.open_file import ModelFileOpener
from app.ui.state_signals import StateSignals
from app.ui.threads import WorkerThread
from app.ui.widgets.icons import set_icon


class OpenFileAction(QObject):
    """The Open file… action (Ctrl+O wherever the focus is), off while a reply is written, like the picker."""

    def __init__(self, state_signals: StateSignals, window: QMainWindow) -> None:
        super().__init__(window)
        self.state = state_signals.state
        self.opener = ModelFileOpener(app_paths().models, window)
        self.action = QAction(self.tr("Open file…"), window)
        self.action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Open))
        self.action.setToolTip(self.tr("Add a .gguf model file from this computer and load it (Ctrl+O)"))
        self.action.triggered.connect(self.opener.choose_and_open)
        set_icon(self.action, "open")
        window.addAction(self.action)  # its shortcut works wherever the focus is
        state_signals.changed.connect(self._update)
        self._update()

    def place(self, toolbar: QToolBar, beside: QWidget, menu: QMenu) -> None:
        """After `beside` (the model picker's controls) in the toolbar, and first in `menu`."""
        actions = toolbar.actions()
        at = next((i for i, a in enumerate(actions) if toolbar.widgetForAction(a) is beside), len(actions) - 1)
        if at + 1 < len(actions):
            toolbar.insertAction(actions[at + 1], self.action)
        else:
            toolbar.addAction(self.action)
        items = menu.actions()
        if items:
            menu.insertAction(items[0], self.action)
        else:
            menu.addAction(self.action)

    def _update(self) -> None:
        self.action.setEnabled(not self.state.is_streaming)

    def request_stop(self) -> None:
        """Cancel a file check; never waits."""
        if self.opener.job_thread is not None:
            self.opener.job_thread.request_stop()

    def threads(self) -> list[WorkerThread]:
        return [self.opener.job_thread] if self.opener.job_thread is not None else []
