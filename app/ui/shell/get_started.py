"""The first steps of a new user, composed in the window: welcome, a better model, typing at once.

- An empty chat shows the welcome (`app.ui.chat.welcome`): what the model on duty is, the
  load's progress, a failed load; with the starter model, "Get a better model".
- "Get a better model" opens the recommended models sized for this computer
  (`app.ui.models.recommended_dialog`); a Download goes to the Models window's queue, the
  one download machinery, and the Models window opens on its Downloads tab (with the note
  that a vision model will read text only, when its repository publishes no projector).
- The cursor is in the message box when the window first shows, and again once a model has
  loaded, unless the user has put it somewhere else meanwhile (the chat list's search, a panel).

Open file… is `app.ui.shell.open_file_action`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QMainWindow, QWidget

from app.core.hub.downloads.job import DownloadRequest
from app.ui.chat.composer import Composer
from app.ui.chat.view import ChatView
from app.ui.chat.welcome import WelcomeState
from app.ui.llm.worker import LlmWorker
from app.ui.state_signals import StateSignals
from app.ui.threads import WorkerThread

if TYPE_CHECKING:
    from app.ui.models.manager import ModelManagerDialog
    from app.ui.models.recommended_dialog import RecommendedModelsDialog


class GetStarted(QObject):
    """The welcome in an empty chat, the recommended models, and the cursor in the message box.

    `models_window` shows the Models window (downloads go to its queue); `picker` is, like the
    chat view, a place the focus rests when the user is not busy elsewhere.
    """

    def __init__(
        self,
        state_signals: StateSignals,
        worker: LlmWorker,
        chat_view: ChatView,
        composer: Composer,
        picker: QWidget,
        models_window: Callable[[], ModelManagerDialog],
        window: QMainWindow,
    ) -> None:
        super().__init__(window)
        self.composer = composer
        self._idle = (picker, chat_view)
        self._models_window = models_window
        self._window = window
        self._shown = False
        self.recommended: RecommendedModelsDialog | None = None

        self.welcome = WelcomeState(state_signals, worker)
        chat_view.set_empty_state(self.welcome)
        self.welcome.betterModelRequested.connect(self.open_recommended)
        state_signals.modelLoaded.connect(lambda _report: self._focus_message_box())
        window.installEventFilter(self)

    # ---- the message box has the cursor ------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Show and not self._shown:
            self._shown = True
            QTimer.singleShot(0, self._focus_at_start)  # once the window has placed its widgets
        return False

    def _focus_at_start(self) -> None:
        self.composer.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _focus_message_box(self) -> None:
        """After a load: into the message box, unless the user is busy elsewhere in the window."""
        current = self._window.focusWidget()
        if current is None or current in self._idle or self.welcome.isAncestorOf(current):
            self.composer.setFocus(Qt.FocusReason.OtherFocusReason)

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

    def _download(self, requests: list[DownloadRequest], note: str) -> None:
        self._models_window().start_downloads(requests, note)

    # ---- exit --------------------------------------------------------------------

    def request_stop(self) -> None:
        """Cancel the planning; never waits."""
        for thread in self.threads():
            thread.request_stop()

    def threads(self) -> list[WorkerThread]:
        return self.recommended.threads() if self.recommended else []
