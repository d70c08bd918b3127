"""The glass box in the main window: Load details, Stats, Prompt inspector and Logs docks,
token probabilities under View, and Help → Copy diagnostics.

Everything here listens to the LLM worker's signals and the window's own; the window only
creates it (`GlassBox(window)`).
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, qVersion
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDockWidget

from app.core.diagnostics.report import DiagnosticsInput
from app.core.inference.engine import ChatMessage, LoadReport, ReplyDone
from app.core.support.log_buffer import install_log_buffer
from app.core.support.logging_setup import LOG_FILE_NAME
from app.core.inference.metrics import ReplyMetrics
from app.core.paths import app_paths
from app.core.chat.prompt_inspector import PromptInspection
from app.core.inference.token_probs import TokenTrace
from app.ui.glass.load_panel import LoadPanel
from app.ui.glass.logs_panel import DiagnosticsCopier, LogsPanel
from app.ui.glass.prompt_inspector_panel import PromptInspectorPanel
from app.ui.glass.stats_panel import StatsPanel
from app.ui.glass.token_view import TokenReplyView, attach_token_view, show_tokens
from app.ui.llm.worker import InspectRequest

if TYPE_CHECKING:
    from app.ui.shell.main_window import MainWindow

log = logging.getLogger(__name__)

DRAFT_REFRESH_MS = 600  # the prompt inspector follows typing after this pause


class GlassBox(QObject):
    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.worker = window.worker
        self.last_report: LoadReport | None = None
        self._pending_metrics: ReplyMetrics | None = None
        self._pending_trace: TokenTrace | None = None
        self._inspecting = False
        self._ask_again = False

        self.load_panel = LoadPanel()
        self.stats_panel = StatsPanel()
        self.prompt_panel = PromptInspectorPanel()
        self.logs_panel = LogsPanel(install_log_buffer())
        self.load_dock = self.window.add_dock(self.tr("Load details"), "LoadDetailsDock", self.load_panel)
        self.stats_dock = self.window.add_dock(self.tr("Stats"), "StatsDock", self.stats_panel)
        self.prompt_dock = self.window.add_dock(self.tr("Prompt inspector"), "PromptInspectorDock", self.prompt_panel)
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.logs_dock = self.window.add_dock(self.tr("Logs"), "LogsDock", self.logs_panel, bottom)
        self.load_dock.raise_()
        self.logs_dock.hide()

        self.token_action = QAction(self.tr("Token probabilities"), window)
        self.token_action.setCheckable(True)
        self.token_action.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.token_action.setToolTip(
            self.tr("Record the top 5 alternatives of every generated token and show replies token by token")
        )
        self.token_action.toggled.connect(self.set_token_probabilities)
        window.view_menu.addSeparator()
        window.view_menu.addAction(self.token_action)

        self.diagnostics = DiagnosticsCopier(self.gather_diagnostics, self)
        self.diagnostics_action = QAction(self.tr("Copy diagnostics"), window)
        self.diagnostics_action.setToolTip(
            self.tr("Put versions, hardware, model, settings and the last errors on the clipboard for a bug report")
        )
        self.diagnostics_action.triggered.connect(self.diagnostics.copy)
        self.diagnostics.copied.connect(
            lambda _text: window.statusBar().showMessage(self.tr("Diagnostics copied to the clipboard"), 5000)
        )
        self.diagnostics.failed.connect(
            lambda error: window.error_banner.show_error(
                self.tr("Diagnostics could not be gathered: {error}").replace("{error}", error)
            )
        )
        window.help_menu.addAction(self.diagnostics_action)

        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_REFRESH_MS)
        self._draft_timer.timeout.connect(self.refresh_prompt)
        self._connect()

    def _connect(self) -> None:
        worker, window = self.worker, self.window
        worker.loadStarted.connect(self.load_panel.load_started)
        worker.loadStage.connect(self.load_panel.stage_started)
        worker.loadProgress.connect(self.load_panel.progress_changed)
        worker.loaded.connect(self._on_loaded)
        worker.loadFailed.connect(self.load_panel.failed)
        self.load_panel.cancelRequested.connect(worker.cancel_load_event.set)

        worker.replyMetrics.connect(self._on_metrics)
        worker.replyTokens.connect(self._on_tokens)
        worker.failed.connect(self._forget_pending)
        window.replyFinished.connect(self._on_reply_finished)

        worker.promptInspected.connect(self._on_inspected)
        worker.inspectFailed.connect(self._on_inspect_failed)
        self.prompt_panel.refreshRequested.connect(self.refresh_prompt)
        self.prompt_dock.visibilityChanged.connect(self._prompt_dock_shown)
        window.modelLoaded.connect(lambda _report: self.refresh_prompt())
        window.replyFinished.connect(lambda _done: self.refresh_prompt())
        window.composer.textChanged.connect(self._draft_changed)

    # ---- loads ---------------------------------------------------------------------

    def _on_loaded(self, report: LoadReport) -> None:
        self.last_report = report
        self.load_panel.loaded(report)

    # ---- replies -------------------------------------------------------------------

    def set_token_probabilities(self, on: bool) -> None:
        """Record alternatives for the next replies (the worker reads the flag per reply) and switch the views."""
        if on:
            self.worker.token_probabilities.set()
        else:
            self.worker.token_probabilities.clear()
        for view in self.window.chat_view.findChildren(TokenReplyView):
            message = view.parentWidget()
            show_tokens(message, message.body, on)

    def _on_metrics(self, metrics: ReplyMetrics) -> None:
        self._pending_metrics = metrics

    def _on_tokens(self, trace: TokenTrace) -> None:
        self._pending_trace = trace

    def _forget_pending(self, _message: str) -> None:
        self._pending_metrics = None
        self._pending_trace = None

    def _on_reply_finished(self, _done: ReplyDone) -> None:
        metrics, trace = self._pending_metrics, self._pending_trace
        self._forget_pending("")
        messages = self.window.chat_view.messages()
        message = messages[-1] if messages and messages[-1].role == "assistant" else None
        if metrics is not None:
            self.stats_panel.add_reply(metrics)
        if trace is not None and message is not None and trace.steps:
            attach_token_view(message, message.body, trace)
            show_tokens(message, message.body, self.token_action.isChecked())

    # ---- prompt inspector ----------------------------------------------------------

    def inspect_request(self) -> InspectRequest:
        """The next turn as the chat would plan it, with the draft when the panel asks for it."""
        conversation = list(self.window.conversation)
        draft = self.window.composer.toPlainText().strip()
        if draft and self.prompt_panel.include_draft.isChecked():
            conversation.append(ChatMessage("user", draft))
        used = self.window.chats.session.effective()
        return InspectRequest(tuple(conversation), used.sampling.max_tokens, used.window_policy)

    def refresh_prompt(self) -> None:
        """Ask the worker for the prompt of the next turn, when the panel is on screen.

        Not while a reply streams (the question would wait behind it, and the reply's end
        refreshes anyway); one question at a time, and one more if asked meanwhile.
        """
        if not _on_screen(self.prompt_dock) or self.window.loaded_model is None or self.window.is_streaming:
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
        self.prompt_panel.show_inspection(inspection)
        if self._ask_again:
            self.refresh_prompt()

    def _on_inspect_failed(self, message: str) -> None:
        self._inspecting = False
        self.prompt_panel.show_error(message)

    # ---- diagnostics ---------------------------------------------------------------

    def gather_diagnostics(self) -> DiagnosticsInput:
        """What the window knows now (read on the GUI thread; the hardware is measured in the background)."""
        return DiagnosticsInput(
            load_report=self.last_report if self.window.loaded_model is not None else None,
            sampling=self.window.sampling,
            settings=self.window.chats.session.settings.to_dict(),
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
