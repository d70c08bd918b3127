"""Conversations in the main window: the chat list, the settings panel, the context meter, and the
chat history that a turn starts from and is saved into.

The shell creates it with what it needs — the application state, the LLM worker, the chat
session, the chat view, the composer, a way to add docks and the Chat menu to fill — and
places its `meter` above the composer. It hands it the moments of a turn: `send` (a user
message) and `start_reply`; the turn itself — retrieve, plan, generate, its Stop and its one
end — is `replies` (ChatReplies, app/ui/chat/replies.py). Everything else — regenerate, edit
and continue, versions, opening chats, settings — starts here; what only the shell can do it
asks for with a signal (connected directly, so the shell has acted
when `emit` returns).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QWidget

from app.core.chat.context_window import PlanRequest, PlanResult, WindowMessage, WindowPlan, WindowTurn
from app.core.chat.store import Message, MessageState, SearchHit
from app.core.inference.chat_format import default_system_prompt
from app.core.inference.sampling import SamplingParams
from app.core.support.formatting import fill
from app.core.types.load import LoadReport
from app.core.types.stats import ReplyMetrics
from app.core.types.tools import ToolSpec
from app.ui import message
from app.ui.chat.citations import RECALLED_MARK, CitationsBar, recalled_badge, recalled_ids, retrieved_sources
from app.ui.chat.composer import Composer
from app.ui.chat.context_meter import ContextMeter
from app.ui.chat.message_menu import MessageMenus
from app.ui.chat.replies import ChatReplies
from app.ui.chat.session import ChatSession
from app.ui.chat.settings_panel import SettingsPanel
from app.ui.chat.sidebar import ChatSidebar
from app.ui.chat.tool_call_step import saved_steps
from app.ui.chat.view import ChatView, MessageWidget
from app.ui.llm.decoding_replies import ForkSpec
from app.ui.llm.retrieval import RetrievalWorker
from app.ui.llm.worker import LlmWorker
from app.ui.state_signals import StateSignals
from app.ui.widgets.core_text import word
from app.ui.widgets.reply_footer import reply_footer, thinking_cost

METER_DELAY_MS = 400  # the meter follows typing after this pause
MEASURED_SLOWLY_CHARS = 8_000  # a draft longer than this shows "measuring" until its plan comes
METER = "meter"
DRAFT = "draft"  # the id of the message being typed, planned as the next turn's last one (never saved)

DockAdder = Callable[[str, str, QWidget, Qt.DockWidgetArea], QDockWidget]  # title, object name, panel, area


class Conversations(QObject):
    continueRequested = Signal()  # reply to the conversation as it stands (after regenerate or an edit)
    reloadRequested = Signal(object)  # Path: load the model on duty again, with the settings saved now
    titleChanged = Signal(str)  # the window title for the chat on show
    statusMessage = Signal(str, int)  # text, for so many milliseconds
    replyShown = Signal(object, object)  # MessageWidget, Message: a saved reply put on show (its token trace)
    retrievalShown = Signal(object)  # Retrieval: what was retrieved for the reply now being written
    draftMeasured = Signal(object)  # PlanResult: the next turn planned with the message being typed

    def __init__(
        self,
        state_signals: StateSignals,
        worker: LlmWorker,
        session: ChatSession,
        chat_view: ChatView,
        composer: Composer,
        add_dock: DockAdder,
        menu: QMenu,
        parent: QObject | None = None,
        retrieval: RetrievalWorker | None = None,
    ) -> None:
        super().__init__(parent)
        self.state_signals = state_signals
        self.state = state_signals.state
        self.worker = worker
        self.chat_view = chat_view
        self.composer = composer
        self.session = session
        self._meter_pending = False
        self._meter_again = False  # asked while a plan was on its way: plan once more when it comes
        self._meter_chat = ""  # the chat the plan on its way was asked for
        self.last_plan: WindowPlan | None = None
        self._draft_result: PlanResult | None = None  # the meter's last plan, with the draft it was planned with
        self._delete_after_reply: str | None = None  # a chat deleted while its reply was written
        self._listed: list[SearchHit] = []  # what the chat list shows, as last found
        self.retrieval = retrieval  # documents and long memory
        self.message_extras: list[Callable[[MessageWidget, Message], None]] = []  # called as a message's actions fill
        # The tools the chat on show offers, as far as known without starting a server (the window sets it).
        self.offered_tools: Callable[[], tuple[ToolSpec, ...]] = tuple

        self.sidebar = ChatSidebar()
        self.settings_panel = SettingsPanel(session.store)
        self.meter = ContextMeter()
        self.menus = MessageMenus(self.state, session, chat_view, self)
        self.replies = ChatReplies(self.state, worker, session, chat_view, self.sidebar, retrieval, self)
        self.sidebar_dock = add_dock(self.tr("Chats"), "ChatsDock", self.sidebar, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.settings_dock = add_dock(
            self.tr("Chat settings"), "ChatSettingsDock", self.settings_panel, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self._fill_menu(menu)
        self._meter_timer = QTimer(self)
        self._meter_timer.setSingleShot(True)
        self._meter_timer.setInterval(METER_DELAY_MS)
        self._meter_timer.timeout.connect(self.refresh_meter)
        self._connect()

    def _fill_menu(self, menu: QMenu) -> None:
        """The Chat menu after what the shell put there (New chat)."""
        self.regenerate_action = QAction(self.tr("Regenerate reply"), menu)
        self.regenerate_action.setShortcut(QKeySequence("Ctrl+R"))
        self.regenerate_action.setToolTip(self.tr("Write the last reply again; the old one stays as a version"))
        self.regenerate_action.triggered.connect(self.regenerate)
        self.edit_action = QAction(self.tr("Edit last message…"), menu)
        self.edit_action.setShortcut(QKeySequence("Ctrl+E"))
        self.edit_action.triggered.connect(self.menus.edit_last)
        self.export_markdown_action = QAction(self.tr("Export as Markdown…"), menu)
        self.export_markdown_action.triggered.connect(lambda: self._export_current("markdown"))
        self.export_json_action = QAction(self.tr("Export as JSON…"), menu)
        self.export_json_action.triggered.connect(lambda: self._export_current("json"))
        menu.addAction(self.regenerate_action)
        menu.addAction(self.edit_action)
        menu.addSeparator()
        menu.addAction(self.export_markdown_action)
        menu.addAction(self.export_json_action)

    def _connect(self) -> None:
        session, worker = self.session, self.worker
        session.chatsListed.connect(self._on_chats_listed)
        session.chatOpened.connect(self._render_chat)
        session.store.planChanged.connect(self.refresh_meter)  # the system prompt, window policy or max tokens
        session.failed.connect(message.error)
        session.notice.connect(self._on_session_notice)
        session.exported.connect(self._on_exported)
        self.sidebar.chatActivated.connect(self.open_chat)
        self.sidebar.newChatRequested.connect(self.new_chat)
        self.sidebar.renameRequested.connect(self._rename)
        self.sidebar.pinRequested.connect(session.pin_chat)
        self.sidebar.deleteRequested.connect(self._delete_chat)
        self.sidebar.exportRequested.connect(session.export_chat)
        self.sidebar.searchChanged.connect(session.search)
        self.settings_panel.model.reloadRequested.connect(self._reload_model)
        worker.windowPlanned.connect(self._on_meter_planned)
        self.replies.replyBegun.connect(self.menus.attach)
        undo = self.menus.undo
        self.state_signals.streamingChanged.connect(lambda on: undo.finish() if on else None)  # the chat moved on
        self.menus.editSubmitted.connect(self.edit_and_continue)
        self.menus.regenerateRequested.connect(self.regenerate)
        self.replies.planShown.connect(self._show_plan)
        self.replies.retrievalShown.connect(self.retrievalShown)
        self.replies.replySaved.connect(self._on_reply_saved)
        self.replies.retryRequested.connect(self.regenerate)
        self.state_signals.modelLoaded.connect(lambda _report: self.refresh_meter())
        self.state_signals.modelLoaded.connect(self._show_model_defaults)
        self.state_signals.changed.connect(lambda: self.settings_panel.sampling.show_thinking(self.state.load_report))
        self.state_signals.changed.connect(
            lambda: self.settings_panel.model.set_reload_possible(
                self.state.can_send
            )  # a model on duty, nothing running
        )
        if self.retrieval is not None:
            self.retrieval.options.connect(self._on_retrieval_options)
            self.retrieval.failed.connect(self._on_retrieval_failed)  # a method: it runs in this (the GUI) thread
            self.settings_panel.prompt.longMemoryToggled.connect(self._set_long_memory)
        self.settings_panel.prompt.long_memory_box.setVisible(self.retrieval is not None)
        self.composer.textChanged.connect(self._meter_timer.start)

    def shutdown(self) -> bool:
        return self.session.shutdown()

    # ---- a turn --------------------------------------------------------------------

    def send(self, text: str, images: tuple[Path, ...] = ()) -> None:
        """The user's message (and its images): saved, shown; the window then starts the reply."""
        message = self.session.add_user_message(text, images)
        self._refresh_last_reply_actions()  # the reply before is no longer the last: it cannot be regenerated
        self._add_widget(message)
        self.chat_view.scroll_to_end()

    def start_reply(self) -> None:
        """Save an empty reply, show it streaming, and run the turn (ChatReplies)."""
        self.replies.start(tuple(str(i) for i in self.last_plan.kept_ids) if self.last_plan is not None else ())

    def _on_reply_saved(self, finished: Message | None) -> None:
        """The footer of the reply that just ended, when it is still on show; then the chat moves on."""
        messages = self.chat_view.messages()
        if finished is not None and messages and messages[-1].key == finished.id:
            self._decorate(messages[-1], finished)
        deleted, self._delete_after_reply = self._delete_after_reply, None
        if deleted is not None:
            self.session.delete_chat(deleted)
        self.refresh_meter()

    def _on_meter_planned(self, result: PlanResult) -> None:
        if result.request.purpose != METER:
            return
        self._meter_pending = False
        if self._meter_chat != self.session.chat.id:  # asked for another chat, on show no more
            self._meter_again = False
            self.refresh_meter()
            return
        self._draft_result = result
        self._show_plan(result)
        self.draftMeasured.emit(result)
        if self._meter_again:
            self._meter_again = False
            self.refresh_meter()

    # ---- documents and long memory ------------------------------------------------

    def _set_long_memory(self, enabled: bool) -> None:
        if self.retrieval is not None:
            self.retrieval.longMemoryRequested.emit(self.session.chat.id, enabled)

    def _on_session_notice(self, text: str) -> None:
        message.warning(text)

    def _on_exported(self, path: str) -> None:
        self.statusMessage.emit(fill(self.tr("Chat exported to {path}"), path=path), 8000)

    def _on_retrieval_failed(self, text: str) -> None:
        message.warning(text)

    def _on_retrieval_options(self, chat_id: str, long_memory: bool) -> None:
        if chat_id == self.session.chat.id:
            self.settings_panel.prompt.set_long_memory(long_memory)

    def _show_retrieval(self, widget: MessageWidget, message: Message) -> None:
        """The sources under a reply that had excerpts, and the "recalled" note on the turns it recalled."""
        if message.role != "assistant" or not message.stats:
            return
        sources = retrieved_sources(message.stats)
        if sources and widget.findChild(CitationsBar) is None:
            widget.add_below(CitationsBar(sources, message.text, widget))
        recalled = set(recalled_ids(message.stats))
        for earlier in self.chat_view.messages() if recalled else ():
            if earlier.key in recalled and not earlier.property(RECALLED_MARK):
                earlier.setProperty(RECALLED_MARK, True)
                earlier.add_below(recalled_badge(earlier))

    # ---- the meter and the window marks --------------------------------------------

    def refresh_meter(self) -> None:
        """Plan the next turn (with the text being typed) to show what it takes of the context."""
        if self.state.loaded_model is None:
            self.meter.clear()
            return
        if not self.state.can_send:  # a reply streams, or the app closes
            if self.state.is_streaming and not self.replies.reply_on_show:  # in another chat: not this one's numbers
                self.meter.set_waiting(self.tr("Context: measured when the reply in the other chat ends"))
            return
        if self._meter_pending:  # the text may have changed since that plan was asked for
            self._meter_again = True
            if self._draft_result is None:  # another chat on show: its numbers are not the ones shown
                self.meter.set_waiting(self.tr("Context: measuring…"))
            return
        used = self.session.effective()
        history: tuple[WindowMessage, ...] = self.session.window_records()
        draft = self.composer.toPlainText().strip()
        # The next turn ends with the user's message, even before a word of it is typed: so the
        # window is the one a send would get (in an empty chat too, with the system prompt the
        # template writes by default), and the chat's own latest message (a long reply, a message
        # refused as too long) is not blamed for a turn that has not been written.
        history = (*history, WindowTurn(DRAFT, "user", draft))
        if len(draft) > MEASURED_SLOWLY_CHARS:  # counting its tokens takes a while: no stale numbers meanwhile
            self.meter.set_waiting(self.tr("Context: measuring the message…"))
        self._meter_pending = True
        self._meter_chat = self.session.chat.id
        self.worker.planRequested.emit(
            PlanRequest(
                METER,
                used.system_prompt,
                history,
                used.sampling.max_tokens,
                used.window_policy,
                sampling=used.sampling,
                tools=self.offered_tools(),  # their definitions take room too
            )
        )

    def measured(self, text: str) -> PlanResult | None:
        """The meter's plan of the next turn if it was made with `text` as the message being typed, else None."""
        result = self._draft_result
        if result is None or not result.request.messages:
            return None
        draft = result.request.messages[-1]
        return result if draft.id == DRAFT and draft.text == text.strip() else None

    def measure_now(self) -> None:
        """Plan the next turn with the text being typed now, without waiting for a pause in the typing."""
        self._meter_timer.stop()
        self.refresh_meter()

    def _show_plan(self, result: PlanResult) -> None:
        if result.plan is None:
            self.meter.set_error(result.error)
            return
        self.last_plan = result.plan
        self.meter.set_plan(result.plan)
        self.chat_view.mark_outside_window({str(i) for i in result.plan.outside_ids})

    # ---- chats ---------------------------------------------------------------------

    def open_chat(self, chat_id: str) -> None:
        """Show another chat; a reply being written goes on in its own chat (and is there on coming back)."""
        if chat_id == self.session.chat.id and self.session.saved:
            return
        self.session.open_chat(chat_id)

    def new_chat(self) -> None:
        """An empty chat on show; a reply being written goes on in its own chat."""
        self.session.new_chat()
        self.chat_view.clear()
        message.clear()

    def _delete_chat(self, chat_id: str) -> None:
        reply = self.replies.reply
        if reply is not None and reply.chat_id == chat_id:
            self._delete_after_reply = chat_id  # its reply ends and is saved first, then the chat goes
            self.replies.stop()
            return
        self.session.delete_chat(chat_id)

    def _rename(self, chat_id: str, title: str) -> None:
        self.session.rename_chat(chat_id, title)
        if chat_id == self.session.chat.id:
            self._show_title()

    def _show_title(self) -> None:
        self.titleChanged.emit(fill(self.tr("{title} — Glassbox"), title=word(self.session.chat.title)))

    def _on_chats_listed(self, hits: list[SearchHit]) -> None:
        self._listed = hits
        self._show_list()
        listed = next((hit.chat for hit in hits if hit.chat.id == self.session.chat.id), None)
        if listed is not None and listed.title != self.session.chat.title:  # named by its first message
            self.session.chat = replace(self.session.chat, title=listed.title)
            self._show_title()

    def _show_list(self) -> None:
        """The chats last listed, with the chat on show selected (listed even before its first message)."""
        self.sidebar.set_current(self.session.chat.id)
        self.sidebar.set_chats(self._listed, None if self.session.saved else self.session.chat)

    def _render_chat(self) -> None:
        """Show the thread of the chat on show (another chat, a new one, or another version)."""
        self._render_thread_only()
        self.state.chat_opened(self.session.chat.id)
        self._show_list()
        self._show_title()
        self.last_plan = None
        self._draft_result = None  # planned with another chat's history
        if self.retrieval is not None:
            self.retrieval.optionsRequested.emit(self.session.chat.id)
        self.refresh_meter()

    def _add_widget(self, message: Message) -> MessageWidget:
        widget = self.chat_view.add_message(message.role, message.text, key=message.id)
        widget.show_reasoning(message.reasoning)  # folded above its answer
        widget.show_images(message.images)
        for step in saved_steps(message.stats, widget):  # the tool calls it made, between the two
            widget.add_step(step)
        self._decorate(widget, message)
        self.menus.attach(widget)
        if message.role == "assistant":
            self.replyShown.emit(widget, message)
        return widget

    def _decorate(self, widget: MessageWidget, message: Message) -> None:
        """The footer from what the history keeps, so a reply shows the same footer live and reloaded."""
        notes = []
        if message.role == "assistant" and message.stats and "completion_tokens" in message.stats:
            notes.append(reply_footer(ReplyMetrics.from_dict(message.stats)))
        state_notes = {
            MessageState.FAILED: self.tr("failed part-way"),
            MessageState.INTERRUPTED: self.tr("interrupted: Glassbox closed while this reply was written"),
        }
        if message.state in state_notes:
            notes.append(state_notes[message.state])
        widget.set_footer(" · ".join(notes))
        seconds, tokens = thinking_cost(message.stats)
        if widget.reasoning is not None and (seconds or tokens):  # else what the window measured stays
            widget.reasoning.set_cost(seconds, tokens)
        self._show_retrieval(widget, message)
        position, count = self.session.versions.get(message.id, (0, 1))
        widget.versions.show_position(position, count, can_switch=not self.state.is_streaming)
        self._fill_actions(widget, message)

    def _fill_actions(self, widget: MessageWidget, message: Message) -> None:
        """The hover buttons of a message: copy; edit (yours); regenerate (the last reply); delete."""
        bar = widget.action_bar
        bar.clear()
        bar.add(
            "copy", self.tr("Copy"), self.tr("Copy the text"), lambda: QGuiApplication.clipboard().setText(message.text)
        )
        if message.role == "user":
            bar.add("edit", self.tr("Edit"), self.tr("Edit and continue from here (the old version is kept)"),
                    lambda: self.menus.edit_in_place(message.id))  # fmt: skip
        is_last = bool(self.session.shown_thread) and self.session.shown_thread[-1].id == message.id
        if message.role == "assistant" and is_last:
            bar.add("regenerate", self.tr("Regenerate"), self.tr("Write this reply again (it stays as a version)"),
                    self.regenerate)  # fmt: skip
        bar.add("delete", self.tr("Delete"), self.tr("Delete this message and what follows it"),
                lambda: self.menus.delete_message(message.id))  # fmt: skip
        widget.versions.on_step(lambda step: self._step_version(message.id, step))
        for extra in self.message_extras:  # what other features add to a message (Replay)
            extra(widget, message)

    def _refresh_last_reply_actions(self) -> None:
        """The message shown last before the one just added (its actions depend on being last)."""
        widgets = self.chat_view.messages()
        before = next((m for m in self.session.shown_thread if widgets and m.id == widgets[-1].key), None)
        if before is not None:
            self._fill_actions(widgets[-1], before)

    def _step_version(self, message_id: str, step: int) -> None:
        if not self.state.is_streaming:
            self.session.show_version(message_id, step)

    # ---- regenerate, edit and continue --------------------------------------------------

    def regenerate(self) -> None:
        """Write the last reply again; the old reply stays as another version."""
        if not self.state.can_send or self.session.regenerate_point() is None:
            return
        self._render_thread_only()
        self.continueRequested.emit()

    def fork_reply(self, message_id: str, fork: ForkSpec) -> None:
        """Write another version of a reply that keeps its tokens before `fork.position` and has
        `fork.forced` there (the token view's fork); the original stays as a version."""
        if not self.state.can_send or message_id not in {m.id for m in self.session.shown_thread}:
            return
        self.session.branch_point(message_id)
        self.replies.pending_fork = fork
        self._render_thread_only()
        self.continueRequested.emit()

    def edit_and_continue(self, message_id: str, text: str) -> None:
        """A new version of a user message; the chat continues from it (the old branch is kept)."""
        text = text.strip()
        if not text or not self.state.can_send:
            return
        self.session.edit_message(message_id, text)
        self._render_thread_only()
        self.continueRequested.emit()

    def _render_thread_only(self) -> None:
        self.chat_view.clear()
        for shown in self.session.shown_thread:
            if self.replies.reply is not None and shown.id == self.replies.reply.id:
                live = self.chat_view.begin_reply(key=shown.id)  # back in the chat whose reply is written
                self.menus.attach(live)
                self.chat_view.append_tokens(self.session.recorded_text())
            else:
                self._add_widget(shown)

    def _export_current(self, kind: str) -> None:
        if self.session.saved:
            self.sidebar.export(self.session.chat.id, kind)

    # ---- settings ------------------------------------------------------------------

    def _show_model_defaults(self, report: LoadReport) -> None:
        """The settings panel learns the loaded model's own system prompt, and shows its own load settings; the
        load used the saved settings."""
        self.settings_panel.prompt.set_model_default_prompt(
            None if report.server else default_system_prompt(report.chat_template)
        )
        model = self.settings_panel.model
        model.set_model(None if report.server else Path(report.config.model_path).name, report.chat_template)
        self.settings_panel.model.model_loaded()

    def _reload_model(self) -> None:
        if self.state.loaded_model is not None:
            self.reloadRequested.emit(self.state.loaded_model)

    def set_sampling(self, params: SamplingParams) -> None:
        """Use these sampling settings for the chat on show (as if typed into the panel)."""
        store = self.session.store
        store.edit_chat(store.chat.with_sampling(params.to_dict(), store.settings.sampling))
