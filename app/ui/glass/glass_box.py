"""The glass box in the main window: Load details, Stats, Prompt inspector and Logs docks,
token probabilities under View, and Help → Copy diagnostics.

Everything here listens to the LLM worker's signals and the application state's. The shell
creates it with its collaborators: the state, the worker, the chat view and the composer,
the chat on show (read, never changed) and a way to add docks. The shell puts its two actions
(token probabilities, copy diagnostics) in its menus and calls `reply_shown` once the view has
shown a finished reply. It tells the user through `app.ui.message`.
"""

from __future__ import annotations

import logging
import logging.handlers
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal, SignalInstance, qVersion
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDockWidget, QPlainTextEdit, QWidget

from app.core.chat.prompt_inspector import InspectRequest, PromptInspection
from app.core.diagnostics.report import DiagnosticsInput
from app.core.inference import token_probs
from app.core.paths import app_paths
from app.core.settings import EffectiveSettings
from app.core.support.formatting import fill
from app.core.support.log_buffer import install_log_buffer
from app.core.support.logging_setup import LOG_FILE_NAME
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.stats import ReplyMetrics
from app.core.types.token_trace import TokenTrace
from app.core.types.tools import ToolSpec
from app.ui import message
from app.ui.glass.load_panel import LoadPanel
from app.ui.glass.logs_panel import DiagnosticsCopier, LogsPanel
from app.ui.glass.prompt_inspector_panel import PromptInspectorPanel
from app.ui.glass.stats_panel import StatsPanel
from app.ui.glass.token_view import attach_token_view, show_tokens
from app.ui.llm.worker import LlmWorker
from app.ui.settings.store import SettingsStore
from app.ui.state_signals import StateSignals
from app.ui.widgets.reply_footer import thinking_cost

log = logging.getLogger(__name__)

DRAFT_REFRESH_MS = 600  # the prompt inspector follows typing after this pause
INSPECTED_DRAFT_CHARS = 20_000  # a longer draft is left out: its thousands of token chips would stall the window

DockAdder = Callable[[str, str, QWidget, Qt.DockWidgetArea], QDockWidget]  # title, object name, panel, area


class ChatTranscript(Protocol):
    """The chat view as the glass box reads it: its message widgets, oldest first, each a
    QWidget with a `role` and a text `body` (app.ui.chat.view.ChatView is one), and the
    widget of the reply that last finished on show (None when it finished in another chat)."""

    last_rendered: Any

    def messages(self) -> Sequence[Any]: ...


class ChatOnShow(Protocol):
    """What the glass box reads of the chat on show (the chat session is one)."""

    store: SettingsStore  # the settings; its planChanged: the system prompt, max tokens or window policy changed
    chatOpened: SignalInstance  # another chat or branch is on show

    def conversation(self) -> list[ChatMessage]: ...

    def effective(self) -> EffectiveSettings: ...

    def writing_on_show(self) -> bool: ...  # whether the reply being written is in the chat on show


class GlassBox(QObject):
    statusMessage = Signal(str, int)  # text, for so many milliseconds
    forkRequested = Signal(object, int, int)  # a reply's message widget, the token's index, the alternative's id

    def __init__(
        self,
        state_signals: StateSignals,
        worker: LlmWorker,
        chat_view: ChatTranscript,
        composer: QPlainTextEdit,
        chat: ChatOnShow,
        add_dock: DockAdder,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.state_signals = state_signals
        self.state = state_signals.state
        self.worker = worker
        self.chat_view = chat_view
        self.composer = composer
        self.chat = chat
        # The tools the chat on show offers, as far as known without starting a server (the window sets it).
        self.offered_tools: Callable[[], tuple[ToolSpec, ...]] = tuple
        self._pending_metrics: ReplyMetrics | None = None
        self._pending_trace: TokenTrace | None = None
        self._inspecting = False
        self._ask_again = False
        self.draft_left_out = 0  # the length of a draft the last question left out (too long to show), or 0

        self.load_panel = LoadPanel()
        self.stats_panel = StatsPanel()
        self.prompt_panel = PromptInspectorPanel()
        self.logs_panel = LogsPanel(install_log_buffer())
        right, bottom = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea
        self.load_dock = add_dock(self.tr("Load details"), "LoadDetailsDock", self.load_panel, right)
        self.stats_dock = add_dock(self.tr("Stats"), "StatsDock", self.stats_panel, right)
        self.prompt_dock = add_dock(self.tr("Prompt inspector"), "PromptInspectorDock", self.prompt_panel, right)
        self.logs_dock = add_dock(self.tr("Logs"), "LogsDock", self.logs_panel, bottom)
        self.load_dock.raise_()
        self.logs_dock.hide()

        self.token_action = QAction(self.tr("Token probabilities"), self)
        self.token_action.setCheckable(True)
        self.token_action.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.token_action.setToolTip(
            self.tr("Record the top 5 alternatives of every generated token and show replies token by token")
        )
        self.token_action.toggled.connect(self.set_token_probabilities)
        self.token_action.toggled.connect(self._say_when_tokens_apply)

        self.diagnostics = DiagnosticsCopier(self.gather_diagnostics, self)
        self.diagnostics_action = QAction(self.tr("Copy diagnostics"), self)
        self.diagnostics_action.setToolTip(
            self.tr("Put versions, hardware, model, settings and the last errors on the clipboard for a bug report")
        )
        self.diagnostics_action.triggered.connect(self.diagnostics.copy)
        self.diagnostics.copied.connect(
            lambda _text: self.statusMessage.emit(self.tr("Diagnostics copied to the clipboard"), 5000)
        )
        self.diagnostics.failed.connect(self._on_diagnostics_failed)

        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_REFRESH_MS)
        self._draft_timer.timeout.connect(self.refresh_prompt)
        self._connect()

    def _on_diagnostics_failed(self, error: str) -> None:
        message.error(fill(self.tr("Diagnostics could not be gathered: {error}"), error=error))

    def _connect(self) -> None:
        worker = self.worker
        worker.loadStarted.connect(self.load_panel.load_started)
        worker.loadStage.connect(self.load_panel.stage_started)
        worker.loadProgress.connect(self.load_panel.progress_changed)
        self.state_signals.modelLoaded.connect(self.load_panel.loaded)  # with the state, never after it
        worker.loadFailed.connect(self.load_panel.failed)
        worker.loadCancelled.connect(self.load_panel.failed)
        self.load_panel.cancelRequested.connect(worker.cancel_load_event.set)

        worker.replyMetrics.connect(self._on_metrics)
        worker.replyTokens.connect(self._on_tokens)
        worker.failed.connect(self._forget_pending)

        worker.promptInspected.connect(self._on_inspected)
        worker.inspectFailed.connect(self._on_inspect_failed)
        self.prompt_panel.refreshRequested.connect(self.refresh_prompt)
        self.prompt_dock.visibilityChanged.connect(self._prompt_dock_shown)
        self.state_signals.modelLoaded.connect(lambda _report: self.refresh_prompt())
        self.composer.textChanged.connect(self._draft_changed)
        # the summary and the tokens follow the prompt on show: another chat, or its settings, make another
        self.chat.chatOpened.connect(self.refresh_prompt)
        self.chat.store.planChanged.connect(self.refresh_prompt)

    # ---- replies -------------------------------------------------------------------

    def set_token_probabilities(self, on: bool) -> None:
        """Record alternatives for the next replies (the worker reads the flag per reply) and switch the views."""
        if on:
            self.worker.token_probabilities.set()
        else:
            self.worker.token_probabilities.clear()
        for shown in self.chat_view.messages():
            show_tokens(shown, shown.body, on)  # the replies that have a token view

    def _say_when_tokens_apply(self, on: bool) -> None:
        text = (
            self.tr("Token probabilities on: recorded from the next reply")
            if on
            else self.tr("Token probabilities off: replies show as text")
        )
        self.statusMessage.emit(text, 6000)

    def _on_metrics(self, metrics: ReplyMetrics) -> None:
        self._pending_metrics = metrics

    def _on_tokens(self, trace: TokenTrace) -> None:
        self._pending_trace = trace

    def _forget_pending(self, _message: str) -> None:
        self._pending_metrics = None
        self._pending_trace = None

    def reply_shown(self, done: ReplyDone) -> None:
        """A finished reply is on show: its stats, its token view, and the prompt of the next turn."""
        metrics, trace = self._pending_metrics, self._pending_trace
        self._forget_pending("")
        message = self.chat_view.last_rendered  # None when the reply finished in a chat not on show
        if metrics is not None:
            self.stats_panel.add_reply(metrics)
        if trace is not None and message is not None and trace.steps:
            self._attach_tokens(message, trace, done.stats.reasoning_tokens)
        self.refresh_prompt()

    def show_saved_tokens(self, message: Any, stats: Mapping[str, Any]) -> None:
        """A reply from the history with its token trace gets its token view back."""
        saved = stats.get(token_probs.STATS_KEY)
        if not isinstance(saved, dict):
            return
        try:
            trace = TokenTrace.from_dict(saved)
        except (KeyError, TypeError, ValueError) as error:
            log.warning("A saved token trace could not be read (%s); the reply shows as text", error)
            return
        if trace.steps:
            self._attach_tokens(message, trace, thinking_cost(stats)[1])

    def _attach_tokens(self, message: Any, trace: TokenTrace, reasoning_tokens: int) -> None:
        """The reply's token view; clicking an alternative there asks to fork the reply (forkRequested)."""
        view = attach_token_view(message, message.body, trace, reasoning_tokens)
        view.forkRequested.connect(lambda index, token_id: self.forkRequested.emit(message, index, token_id))
        show_tokens(message, message.body, self.token_action.isChecked())

    # ---- prompt inspector ----------------------------------------------------------

    def inspect_request(self) -> InspectRequest:
        """The next turn as the chat would plan it (its thinking switch too): the conversation, then the user's
        message — the draft when the panel includes it, else an empty one, so an empty chat shows what the
        model gets before a word is typed (the template's frame, a default system prompt it writes).
        A draft too long to show token by token is left out (`draft_left_out` says how long it is)."""
        conversation = list(self.chat.conversation())
        draft = self.composer.toPlainText().strip() if self.prompt_panel.include_draft.isChecked() else ""
        self.draft_left_out = len(draft) if len(draft) > INSPECTED_DRAFT_CHARS else 0
        conversation.append(ChatMessage("user", "" if self.draft_left_out else draft))
        used = self.chat.effective()
        return InspectRequest(
            tuple(conversation), used.sampling.max_tokens, used.window_policy, used.sampling, self.offered_tools()
        )

    def refresh_prompt(self) -> None:
        """Ask the worker for the prompt of the next turn, when the panel is on screen.

        Not while a reply streams (the question would wait behind it, and the reply's end
        refreshes anyway): while it streams in another chat, the panel says so instead of
        showing a prompt that is not this chat's. One question at a time, and one more if
        asked meanwhile.
        """
        if not _on_screen(self.prompt_dock):
            return
        if not self.state.can_send:
            if self.state.is_streaming and not self.chat.writing_on_show():
                waiting = self.tr("This chat's prompt is read when the reply in the other chat ends")
                self.prompt_panel.show_waiting(waiting)
            return
        if self._inspecting:
            self._ask_again = True
            return
        self._inspecting = True
        self._ask_again = False
        self.prompt_panel.set_busy()
        self.worker.inspectRequested.emit(self.inspect_request())

    def _prompt_dock_shown(self, visible: bool) -> None:
        if visible:
            self.refresh_prompt()

    def _draft_changed(self) -> None:
        if self.prompt_panel.include_draft.isChecked():
            self._draft_timer.start()

    def _on_inspected(self, inspection: PromptInspection) -> None:
        self._inspecting = False
        if self._ask_again:
            self.refresh_prompt()
            if self._inspecting:  # asked again since: this answer is out of date, the next one is on its way
                return
        self.prompt_panel.show_inspection(inspection, self.draft_left_out)

    def _on_inspect_failed(self, message: str) -> None:
        self._inspecting = False
        self.prompt_panel.show_error(message)

    # ---- diagnostics ---------------------------------------------------------------

    def gather_diagnostics(self) -> DiagnosticsInput:
        """What the window knows now (read on the GUI thread; the hardware is measured in the background)."""
        return DiagnosticsInput(
            load_report=self.state.load_report,
            sampling=self.chat.effective().sampling,
            settings=self.chat.store.settings.to_dict(),
            errors=self.logs_panel.buffer.recent_errors(),
            log_file=_log_file(),
            qt_version=qVersion(),
            qt_platform=QGuiApplication.platformName(),
        )


def _on_screen(dock: QDockWidget) -> bool:
    """Shown and not behind another tab (a tabbed dock stays 'visible' while another tab is on top)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def _log_file() -> Path:
    """Where the rotating log file is written (the default place when logging is not set up yet)."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.handlers.RotatingFileHandler):
            return Path(handler.baseFilename)
    return app_paths().logs / LOG_FILE_NAME
