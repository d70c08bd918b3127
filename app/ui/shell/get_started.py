"""The first steps of a new user, composed in the window: welcome, a better model, Open file…, typing at once.

- An empty chat shows the welcome (`app.ui.chat.welcome`): what the model on duty is, the
  load's progress, a failed load; with the starter model, "Get a better model".
- "Get a better model" opens the recommended models sized for this computer
  (`app.ui.models.recommended_dialog`); a Download goes to the Models window's queue, the
  one download machinery, and the Models window opens on its Downloads tab.
- Open file… (beside the model picker, and in Tools) adds a .gguf file from this computer to
  the library where it is, checked on a worker thread (`app.ui.models.open_file`), then loads it.
- The cursor is in the message box when the window first shows, and again once a model has
  loaded, unless the user has put it somewhere else meanwhile (the chat list's search, a panel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QMainWindow, QMenu, QToolBar, QWidget

from app.core.hub.downloads.job import DownloadRequest
from app.core.paths import app_paths
from app.ui import message
from app.ui.chat.composer import Composer
from app.ui.chat.view import ChatView
from app.ui.chat.welcome import WelcomeState
from app.ui.llm.worker import LlmWorker
from app.ui.models.open_file import ModelFileOpener
from app.ui.state_signals import StateSignals
from app.ui.threads import WorkerThread
from app.ui.widgets.icons import set_icon

if TYPE_CHECKING:
    from app.ui.models.manager import ModelManagerDialog
    from app.ui.models.recommended_dialog import RecommendedModelsDialog


@dataclass(frozen=True)
class StartParts:
    """What the first steps use of the window."""

    state_signals: StateSignals
    worker: LlmWorker
    chat_view: ChatView
    composer: Composer
    picker: QComboBox
    toolbar: QToolBar
    menu: QMenu  # Tools: Open file… goes first
    status: Callable[[str], None]  # a line in the status bar
    models_window: Callable[[], ModelManagerDialog]  # the Models window, shown
    show_model: Callable[[Path], None]  # list the library again and load this model


class GetStarted(QObject):
    def __init__(self, parts: StartParts, window: QMainWindow) -> None:
        super().__init__(window)
        self.parts = parts
        self._window = window
        self._shown = False
        self.recommended: RecommendedModelsDialog | None = None

        self.welcome = WelcomeState(parts.state_signals, parts.worker)
        parts.chat_view.set_empty_state(self.welcome)
        self.welcome.betterModelRequested.connect(self.open_recommended)

        self.opener = ModelFileOpener(app_paths().models, window)
        self.opener.busy.connect(parts.status)
        self.opener.opened.connect(parts.show_model)
        self.opener.notice.connect(self._on_opener_notice)
        self.opener.failed.connect(message.error)
        self.open_file_action = QAction(self.tr("Open file…"), window)
        self.open_file_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Open))
        self.open_file_action.setToolTip(self.tr("Add a .gguf model file from this computer and load it (Ctrl+O)"))
        self.open_file_action.triggered.connect(self.opener.choose_and_open)
        set_icon(self.open_file_action, "open")
        _insert_after(parts.toolbar, parts.picker, self.open_file_action)  # beside the model picker
        menu_items = parts.menu.actions()
        if menu_items:
            parts.menu.insertAction(menu_items[0], self.open_file_action)
        else:
            parts.menu.addAction(self.open_file_action)
        window.addAction(self.open_file_action)  # its shortcut works wherever the focus is

        parts.state_signals.changed.connect(self._update_action)
        parts.state_signals.modelLoaded.connect(lambda _report: self._focus_message_box())
        window.installEventFilter(self)
        self._update_action()

    # ---- the message box has the cursor ------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Show and not self._shown:
            self._shown = True
            QTimer.singleShot(0, self._focus_at_start)  # once the window has placed its widgets
        return False

    def _focus_at_start(self) -> None:
        self.parts.composer.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _focus_message_box(self) -> None:
        """After a load: into the message box, unless the user is busy elsewhere in the window."""
        current = self._window.focusWidget()
        idle = (self.parts.picker, self.parts.chat_view)
        if current is None or current in idle or self.welcome.isAncestorOf(current):
            self.parts.composer.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_opener_notice(self, text: str) -> None:
        message.info(text)

    def _update_action(self) -> None:
        """Like the picker: no other model while a reply is written."""
        self.open_file_action.setEnabled(not self.parts.state_signals.state.is_streaming)

    # ---- a better model ----------------------------------------------------------

    def open_recommended(self) -> RecommendedModelsDialog:
        """The recommended models, sized anew each time the list opens (the free memory changes)."""
        if self.recommended is None:
            from app.ui.models.recommended_dialog import RecommendedModelsDialog  # with the Models window, on use

            self.recommended = RecommendedModelsDialog(self._window)
            self.recommended.downloadRequested.connect(self._download)
        self.recommended.show()
        self.recommended.raise_()
        self.recommended.activateWindow()
        self.recommended.plan()
        return self.recommended

    def _download(self, request: DownloadRequest) -> None:
        self.parts.models_window().start_downloads([request])

    # ---- exit --------------------------------------------------------------------

    def request_stop(self) -> None:
        """Cancel a file check and the planning; never waits."""
        for thread in self.threads():
            thread.request_stop()

    def threads(self) -> list[WorkerThread]:
        return [
            thread
            for thread in (self.opener.job_thread, self.recommended.job_thread if self.recommended else None)
            if thread is not None
        ]


def _insert_after(toolbar: QToolBar, widget: QWidget, action: QAction) -> None:
    actions = toolbar.actions()
    at = next((i for i, a in enumerate(actions) if toolbar.widgetForAction(a) is widget), len(actions) - 1)
    if at + 1 < len(actions):
        toolbar.insertAction(actions[at + 1], action)
    else:
        toolbar.addAction(action)
