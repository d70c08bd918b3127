"""The main window: layout, menus and wiring; the work is done by the features and the shell's collaborators
(`model_choice`, `model_loading`, `docks`, `chat_area`, `closing` …); the LLM worker runs beside it."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from PySide6.QtCore import QSize, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import QMainWindow, QMenu

from app.core.models.library import installed_models
from app.core.paths import app_paths
from app.core.state import AppState
from app.core.support.formatting import fill
from app.core.types.replies import ReplyDone
from app.ui import message
from app.ui.chat.conversations import Conversations
from app.ui.chat.session import ChatSession
from app.ui.documents.panel import DocumentsPanel
from app.ui.documents.workers import DocumentsThreads
from app.ui.glass.glass_box import GlassBox
from app.ui.gpu.panel import GpuPanel
from app.ui.hardware_sampling import HardwareSampling
from app.ui.llm.retrieval import RetrievalThread, SharedEmbedder
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.monitor.panel import MonitorPanel
from app.ui.server.panel import ServerPanel
from app.ui.settings.store import SettingsStore
from app.ui.shell.about_dialog import show_about_dialog
from app.ui.shell.accessibility import ReplyAnnouncer, arrange_tab_order
from app.ui.shell.appearance_menu import AppearanceMenus
from app.ui.shell.chat_area import ChatArea
from app.ui.shell.closing import ExitPart, OrderedExit
from app.ui.shell.decoding_explorer import DecodingExplorer
from app.ui.shell.docks import Docks
from app.ui.shell.get_started import GetStarted
from app.ui.shell.model_choice import ModelChoice
from app.ui.shell.model_loading import ModelLoader
from app.ui.shell.model_toolbar import ModelToolbar
from app.ui.shell.monitor_extras import MonitorExtras
from app.ui.shell.open_file_action import OpenFileAction
from app.ui.shell.oversized_message import OversizedMessage
from app.ui.shell.restart import restart
from app.ui.shell.server_models import ServerModels
from app.ui.shell.shortcuts import ShellParts, WindowShortcuts
from app.ui.shell.status_line import StatusLine
from app.ui.shell.window_memory import load_memory, remember, reopen_last_chat, save_memory
from app.ui.state_signals import StateSignals
from app.ui.tools.opener import McpServersOpener

log = logging.getLogger(__name__)

DEFAULT_SIZE = QSize(1440, 900)
SPEED_REFRESH_MS = 250
WINDOW_FILE = "window.json"  # size, place and panels of the last run (app/ui/shell/window_memory.py)


class MainWindow(QMainWindow):
    replyFinished = Signal(object)  # ReplyDone, after the view has rendered it

    def __init__(self, llm: LlmThread | None = None, initial_model: Path | None = None) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Glassbox"))
        self.resize(DEFAULT_SIZE)
        self.llm = llm or LlmThread()
        self.worker: LlmWorker = self.llm.worker
        self.state_signals = StateSignals(AppState(), self)  # the model on duty, loading/streaming, the chat on show
        self.state = self.state_signals.state

        self._build_toolbar()
        self.docks = Docks(self, self.view_menu)
        area = self.chat_area = ChatArea(self)
        self.setCentralWidget(area)
        self.error_banner, self.alert_notice = area.error_banner, area.alert_notice
        message.register(self.error_banner)  # what panels and workers say through app.ui.message
        self.settings_store = SettingsStore.from_file(app_paths().settings_file, self)  # the one owner of the settings
        self.chat_view, self.composer = area.chat_view, area.composer
        self.send_button, self.stop_button = area.send_button, area.stop_button
        self.composer.submitted.connect(self.send)
        self.stop_button.clicked.connect(self.stop_reply)
        line = StatusLine(self)
        self.setStatusBar(line)
        self.status_label, self.load_progress, self.speed_label = line.status, line.progress, line.speed
        self._connect_worker()
        self._build_gpu_panel()
        session = ChatSession(self.settings_store, parent=self)  # the chat history; both features read it
        # Load details, Stats, Prompt inspector, Logs; token probabilities; diagnostics
        self.glass = GlassBox(
            self.state_signals, self.worker, self.chat_view, self.composer, session, self.docks.add, self
        )
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.glass.token_action)
        self.help_menu.addAction(self.glass.diagnostics_action)
        self.replyFinished.connect(self.glass.reply_shown)
        # documents and long memory: retrieval for the replies, on its own thread; one embedding model
        self.embedder = SharedEmbedder()
        self.retrieval = RetrievalThread(app_paths().chats_db, self.embedder)
        # chat history, sidebar, settings panel, context meter; the settings
        self.chats = Conversations(
            self.state_signals, self.worker, session, self.chat_view, self.composer, self.docks.add,
            self.chat_menu, parent=self, retrieval=self.retrieval.worker,
        )  # fmt: skip
        self._connect_features()
        # the decoding explorer: Compare, forks from the token view, Replay
        self.decoding = DecodingExplorer(
            self.chats, self.worker, self.glass, self.state_signals, self.composer, self.chat_menu, self,
        )  # fmt: skip
        self.decoding.statusMessage.connect(self.statusBar().showMessage)
        area.buttons.addWidget(self.decoding.compare_button)
        self._build_documents_panel()
        self.oversized = OversizedMessage(self.chats, self.composer, self.documents_panel.add_to_this_chat, self)
        self.oversized.sendReady.connect(self.send)
        self._build_monitor_panel()
        self.server_panel = ServerPanel(self.worker, self.settings_store, parent=self)
        self.server_panel.slotsChanged.connect(self.gpu_panel.set_parallel)  # the plan counts the slots' KV
        self.server_panel.openAsChat.connect(self.chats.session.open_transcript)
        # Closed at first (View opens them): the conversation gets the space.
        self.docks.add(self.tr("Server"), "ServerDock", self.server_panel).hide()
        self._show_model_settings()
        self._memory_file = app_paths().config / WINDOW_FILE
        memory = load_memory(self._memory_file)
        self.docks.restore(memory, DEFAULT_SIZE)
        self.reset_layout_action = self.docks.add_reset_action()
        reopen_last_chat(self.chats, memory.last_chat)

        self._speed_timer = QTimer(self)
        self._speed_timer.setInterval(SPEED_REFRESH_MS)
        self._speed_timer.timeout.connect(self._show_live_speed)
        self.state_signals.changed.connect(self._update_controls)
        timer = self._speed_timer
        self.state_signals.streamingChanged.connect(lambda on: timer.start() if on else timer.stop())

        store = self.settings_store
        self.server_models = ServerModels(self.model_picker, lambda: store.settings, store.set_defaults, self)
        self.servers_action.triggered.connect(self.server_models.open_dialog)
        self.mcp_servers = McpServersOpener(self, store)
        self.chats.replies.mcp_manager = self.mcp_servers.manager
        self.chats.offered_tools = self.glass.offered_tools = self.mcp_servers.chat_tools
        self.chats.settings_panel.tools.server_tools = self.mcp_servers.server_tools
        self.mcp_action.triggered.connect(self.mcp_servers.open_page)
        self.models = ModelChoice(
            self.model_picker, self.loader, self.server_models, self.state, self.status_label, area.attachments, self
        )
        self.models.listed.connect(self.chats.settings_panel.model.set_library)
        self.models.listed.connect(self._show_library)
        self.models_action.triggered.connect(self.models.open_models)
        self.models.attach_load_settings(self.toolbar.load_settings)
        self.appearance = AppearanceMenus(lambda: store.settings, store.set_defaults, lambda: restart(self), self)
        self.appearance.add_to(self.view_menu)
        # Open file… beside the model picker and first in Tools; the welcome in an empty chat, the cursor
        self.open_file = OpenFileAction(self.state_signals, self)
        self.open_file.place(self.toolbar, self.toolbar.widgetForAction(self.toolbar.load_settings), self.tools_menu)
        opener = self.open_file.opener
        opener.busy.connect(self.status_label.setText)
        opener.opened.connect(self.models.refresh)  # list the library again and load the file opened
        opener.notice.connect(self._show_notice)
        opener.failed.connect(message.error)
        self.get_started = GetStarted(
            self.state_signals, self.worker, self.chat_view, self.composer, self.model_picker,
            self.models.open_models, self,
        )  # fmt: skip
        # last: it reads the menus the features filled
        self.shortcuts = WindowShortcuts(self, ShellParts(
            self.chats, self.composer, self.new_chat_action, self.stop_reply, self.chat_menu, self.view_menu,
            self.help_menu,
        ))  # fmt: skip
        sidebar = self.chats.sidebar
        chain = [self.model_picker, sidebar.search, sidebar.list, self.chat_view, self.composer, self.send_button]
        arrange_tab_order([*chain, self.stop_button])
        self.reply_announcer = ReplyAnnouncer(self.replyFinished, self.chat_view)
        notice = self.models.hold_back_unfinished_load()
        if notice is not None:
            area.show_notice(notice)
        last_model = Path(memory.last_model) if memory.last_model else None
        self.models.open_initial(initial_model, opener.open, last_model)
        self.server_models.refresh()
        self._update_controls()
        self.exit = self._plan_exit()

    # ---- layout --------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        """The toolbar (the model picker, Models…, Eject) and the menus."""
        toolbar = self.toolbar = ModelToolbar(self)
        self.addToolBar(toolbar)
        self.model_picker, self.models_action, self.eject_action = toolbar.picker, toolbar.models, toolbar.eject
        self.new_chat_action = QAction(self.tr("New chat"), self)
        self.new_chat_action.setToolTip(self.tr("Start an empty conversation (Ctrl+N)"))
        self.new_chat_action.triggered.connect(self.new_chat)  # in the Chat menu; the chat list has its button
        self.chat_menu: QMenu = self.menuBar().addMenu(self.tr("&Chat"))  # Conversations adds the rest
        self.chat_menu.addAction(self.new_chat_action)
        self.tools_menu: QMenu = self.menuBar().addMenu(self.tr("&Tools"))
        self.tools_menu.addAction(self.models_action)
        self.servers_action = QAction(self.tr("Servers…"), self)
        self.servers_action.setToolTip(self.tr("Chat with models on OpenAI-compatible servers"))
        self.tools_menu.addAction(self.servers_action)
        self.mcp_action = QAction(self.tr("MCP servers…"), self)
        self.mcp_action.setToolTip(self.tr("Tools for the model: configure, start and test MCP servers"))
        self.tools_menu.addAction(self.mcp_action)
        self.view_menu: QMenu = self.menuBar().addMenu(self.tr("&View"))
        self.help_menu: QMenu = self.menuBar().addMenu(self.tr("&Help"))
        self.about_action = QAction(self.tr("About Glassbox"), self)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(lambda: show_about_dialog(self))
        self.help_menu.addAction(self.about_action)

    def _connect_worker(self) -> None:
        self.loader = ModelLoader(
            self.state, self.worker, self.status_label, self.load_progress, self.settings_store, self.stop_reply,
        )  # fmt: skip
        self.eject_action.triggered.connect(self.loader.unload)
        self.worker.notice.connect(self._show_notice)  # a slot of this window: queued to the GUI thread

    def _connect_features(self) -> None:
        """Place what the features made, and do what they ask of the shell."""
        chats = self.chats
        self.chat_area.meter_slot.addWidget(chats.meter)
        self.chat_area.show_notice(chats.menus.undo)  # "Message deleted · Undo", over the chat's top
        for action in self.chat_menu.actions():  # their shortcuts work wherever the focus is
            if not action.shortcut().isEmpty():
                self.addAction(action)
        self.settings_store.modelChanged.connect(self._show_model_settings)
        self.state_signals.modelLoaded.connect(lambda _report: self._show_model_settings())
        chats.session.chatOpened.connect(self.speed_label.clear)  # the status bar's speed is the chat on show's
        chats.continueRequested.connect(self.continue_chat)
        chats.replies.ended.connect(self._on_reply_ended)
        chats.reloadRequested.connect(self.load_model)
        chats.titleChanged.connect(self.setWindowTitle)
        chats.statusMessage.connect(self.statusBar().showMessage)
        chats.replyShown.connect(lambda widget, message: self.glass.show_saved_tokens(widget, message.stats))
        self.glass.statusMessage.connect(self.statusBar().showMessage)

    def _plan_exit(self) -> OrderedExit:
        """Stop order: the reply, a load and its warm-up, the GPU poller, servers, retrieval, indexing, downloads …"""
        plan, attachments = OrderedExit(self, self.status_label, self.load_progress), self.chat_area.attachments
        for part in (
            ExitPart(end=self.embedder.close),  # once the LLM thread has ended
            ExitPart(end=self.chats.shutdown),  # the chat storage: the last partial reply is written first
            ExitPart(stop=self._speed_timer.stop),
            ExitPart(stop=self.server_panel.stop),  # API replies end at their next token; its thread is joined
            ExitPart(stop=self.llm.request_stop, threads=lambda: [self.llm.thread]),
            ExitPart(stop=self.hardware_sampling.request_stop, end=self.hardware_sampling.shutdown),
            ExitPart(stop=self.gpu_panel.request_stop, end=self.gpu_panel.shutdown),
            ExitPart(stop=self.server_models.request_stop, threads=lambda: [self.server_models.servers.thread]),
            ExitPart(stop=self.mcp_servers.request_stop, threads=self.mcp_servers.threads),  # ends the MCP servers
            ExitPart(stop=self.monitor_panel.request_stop, end=self.monitor_panel.shutdown),
            ExitPart(stop=self.retrieval.request_stop, threads=lambda: [self.retrieval.thread]),
            ExitPart(stop=self.documents_threads.request_stop, threads=lambda: self.documents_threads.threads),
            ExitPart(stop=self.monitor_extras.request_stop, end=self.monitor_extras.shutdown),
            ExitPart(stop=self.open_file.request_stop, threads=self.open_file.threads),
            ExitPart(stop=attachments.request_stop, threads=attachments.threads, end=attachments.shutdown),
            ExitPart(stop=self.get_started.request_stop, threads=self.get_started.threads),
            ExitPart(stop=self.models.request_stop, threads=self.models.threads, end=self.models.shutdown),
        ):
            plan.add(part)
        return plan

    def _show_library(self, models: list[object]) -> None:
        self.chat_area.show_library(models)
        if not models:
            self._update_controls()

    # ---- models: what the reply and the features ask of the shell ----------------------

    def load_model(self, path: Path) -> None:
        """Load a model file with the saved model settings (a reply on the way is stopped first)."""
        self.loader.load(path)

    def _show_notice(self, text: str) -> None:
        message.info(text)

    # ---- chatting ------------------------------------------------------------------

    def send(self, text: str) -> None:
        unloaded = self.loader.take_unloaded()
        if unloaded is not None and self.state.loaded_model is None and not self.state.is_loading:
            self._send_after_load(text)  # unloaded on purpose: load it again, then send
            self.load_model(unloaded)
            return
        if self.state.loaded_model is None and not self.state.is_loading:
            message.error(self.tr("No model is loaded yet: choose one in the model picker."))
            return
        if not self.state.can_send:  # a reply streams, a model loads, or the window closes
            return
        if not self.chat_area.attachments.sendable(self.state.load_report) or not self.oversized.allows(text):
            return  # images the model cannot see, or a message too long (measured first): the text stays
        self.composer.clear()
        self.error_banner.hide()
        self.chats.send(text, self.chat_area.attachments.take())
        self._start_reply()

    def _send_after_load(self, text: str) -> None:
        def send_once(_report: object) -> None:
            self.state_signals.modelLoaded.disconnect(send_once)
            self.send(text)

        self.state_signals.modelLoaded.connect(send_once)

    def _start_reply(self) -> None:
        if self.state.reply_started():
            self.chats.start_reply()  # saves the reply, shows it streaming, plans the context window, generates

    def stop_reply(self) -> None:
        """Set the turn's stop flag directly: the step running sees it, the token loop before the next token."""
        if self.state.is_streaming:
            self.chats.replies.stop()

    def new_chat(self) -> None:
        self.chats.new_chat()

    def _show_live_speed(self) -> None:
        """The worker counts tokens as it makes them (its text arrives in batches)."""
        tokens, first = self.worker.generated_tokens, self.worker.first_token_at
        elapsed = time.perf_counter() - first
        if tokens > 1 and first and elapsed > 0 and self.chats.replies.reply_on_show:  # the speed of the chat on show
            self.speed_label.setText(fill(self.tr("{speed} tok/s"), speed=f"{(tokens - 1) / elapsed:.1f}"))

    def _on_reply_ended(self, done: ReplyDone, on_show: bool) -> None:
        """The reply is saved: the status bar shows its speed when its chat is on show."""
        if on_show:  # a reply that finished in another chat says nothing about this one
            self.speed_label.setText(fill(self.tr("{speed} tok/s"), speed=f"{done.stats.generation_tokens_per_s:.1f}"))
        self.replyFinished.emit(done)

    def _update_controls(self) -> None:
        self.send_button.setEnabled(self.state.can_send)
        self.composer.set_can_send(self.state.can_send)
        self.stop_button.setEnabled(self.state.is_streaming)
        self.model_picker.setEnabled(not self.state.is_streaming)
        report = self.state.load_report
        local_model = self.state.loaded_model is not None and report is not None and not report.server
        self.eject_action.setEnabled(local_model and not self.state.is_streaming and not self.state.is_loading)

    def _show_model_settings(self) -> None:
        """The GPU panel plans with the load settings of the model on duty (its own over the defaults)."""
        on_duty = self.loader.on_duty()
        store = self.settings_store
        self.gpu_panel.show_settings(store.model_settings(on_duty.name) if on_duty else store.settings.model)

    def continue_chat(self) -> None:
        """Reply to the conversation as it stands (after regenerate, or an edited message)."""
        if self.state.can_send:
            self.error_banner.hide()
            self._start_reply()

    # ---- GPU offload -------------------------------------------------------------------

    def _build_gpu_panel(self) -> None:
        """The GPU offload panel in a dock; the window's one hardware sampler (for the GPU panel and Monitor) starts."""
        self.hardware_sampling = HardwareSampling(parent=self)
        self.hardware_sampling.start()
        self.gpu_panel = GpuPanel(self.hardware_sampling, self.worker, parent=self)
        self.gpu_panel.applyRequested.connect(self.loader.apply)
        self.docks.add(self.tr("GPU offload"), "GpuOffloadDock", self.gpu_panel)

    def _build_monitor_panel(self) -> None:
        """The Monitor panel in a dock (View → Monitor): the machine over time, and alerts above the chat."""
        self.monitor_panel = MonitorPanel(
            self.state_signals, self.hardware_sampling, self.worker, self.settings_store.settings.monitor, parent=self
        )
        self.docks.add(self.tr("Monitor"), "MonitorDock", self.monitor_panel).hide()
        self.monitor_panel.alertRaised.connect(self.alert_notice.show_alert)
        self.monitor_panel.alertCleared.connect(self.alert_notice.clear_alert)
        self.alert_notice.unloadRequested.connect(self.loader.unload)
        self.monitor_panel.idleUnloadRequested.connect(self.loader.unload_when_idle)
        # Its settings dialog (Tools menu), smaller variants of a model that does not fit, the server's metrics
        self.monitor_extras = MonitorExtras(
            self.monitor_panel, self.worker, self.state, self.settings_store, self.loader.apply,
            lambda: self.server_panel.server, self.tools_menu, self,
        )  # fmt: skip

    def _build_documents_panel(self) -> None:
        """The Documents panel in a dock (View → Documents), closed at first; it follows the chat on show."""
        self.documents_threads = DocumentsThreads(app_paths().chats_db, self.embedder)
        self.documents_panel = DocumentsPanel(
            self.documents_threads, self.embedder, lambda: installed_models(app_paths().models), parent=self
        )
        self.docks.add(self.tr("Documents"), "DocumentsDock", self.documents_panel).hide()
        self.chats.retrievalShown.connect(self.glass.prompt_panel.show_retrieval)
        self.state_signals.changed.connect(lambda: self.documents_panel.set_chat(self.state.chat_id or ""))
        self.documents_panel.set_chat(self.chats.session.chat.id)

    # ---- exit ----------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        """The ordered exit (app/ui/shell/closing.py); a close asked for while it runs is refused."""
        if self.state.is_closing:
            event.setAccepted(not self.isVisible())
            return
        chat, closed = (self.chats.session.chat.id if self.chats.session.saved else None), self.docks.closed_for_room
        save_memory(self._memory_file, remember(self, chat, self.loader.on_duty(), closed))
        self.state.closing()
        self.exit.run()
        event.accept()
