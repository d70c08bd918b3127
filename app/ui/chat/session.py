"""The conversation on show and its history: what the main window asks when it sends, replies, edits.

`ChatSession` lives on the GUI thread and keeps the current chat and its thread of messages
in memory (the settings, the chat's own among them, are the settings store's: the session
tells it which chat is on show and saves what the user changes); every change goes to the
storage worker as a queued write, so the GUI never waits for the disk. A streaming reply is saved as it grows through a
`ReplyRecorder`, at most every half second and, while tokens stall, by a timer, so what
was shown survives a crash.

A new chat lives only in memory until its first message; then it is saved with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.chat.context_window import WindowTurn
from app.core.chat.store import (
    PARTIAL_SAVE_INTERVAL_S,
    Chat,
    Message,
    MessageState,
    ReplyRecorder,
    SearchHit,
    new_chat,
    new_message,
)
from app.core.paths import AppPaths, app_paths
from app.core.settings import ChatSettings, EffectiveSettings
from app.core.types.messages import ChatMessage
from app.core.types.stats import ReplyStats
from app.ui.chat.storage import StorageThread
from app.ui.settings.store import SettingsStore


class ChatSession(QObject):
    chatsListed = Signal(object)  # list[SearchHit] for the sidebar
    chatOpened = Signal()  # another chat (or a new one, or another branch) is on show: render `shown_thread`
    failed = Signal(object)  # a storage error (str; a core text keeps its template), for the error banner
    notice = Signal(object)  # (str) something the user should know (a damaged file set aside, a reset setting)
    exported = Signal(str)  # path of a finished export

    def __init__(self, store: SettingsStore, paths: AppPaths | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        paths = paths or app_paths()
        paths.ensure()
        self.store = store
        self._pending_notices = list(store.notices)
        self.chat: Chat = new_chat()
        self.saved = False  # whether `chat` is in the database yet
        self.shown_thread: list[Message] = []
        self.versions: dict[str, tuple[int, int]] = {}
        self.query = ""
        self.query_reasoning = False  # whether the chat search looks in replies' reasoning too
        self._recorder: ReplyRecorder | None = None
        self._replaced: Message | None = None  # the reply that regenerate_point cut off
        self._partial_timer = QTimer(self)
        self._partial_timer.setInterval(int(PARTIAL_SAVE_INTERVAL_S * 1000))
        self._partial_timer.timeout.connect(self._save_partial_if_due)

        self.storage = StorageThread(paths.chats_db, paths.settings_file)
        worker = self.storage.worker
        worker.opened.connect(self._on_opened)
        worker.chatsFound.connect(self._on_chats_found)
        worker.chatLoaded.connect(self._on_chat_loaded)
        worker.chatsChanged.connect(self.refresh_list)
        worker.failed.connect(self.failed)
        worker.exported.connect(self.exported)
        store.saveRequested.connect(worker.saveSettingsRequested)  # the defaults are written on the storage thread
        store.chatEdited.connect(self._save_chat_settings)
        self.storage.open()

    def shutdown(self) -> bool:
        """Save what is streaming, then let the storage thread finish every write and close."""
        self._partial_timer.stop()
        if self._recorder is not None:
            self._recorder.save()
        return self.storage.shutdown()

    # ---- settings ------------------------------------------------------------------

    def effective(self) -> EffectiveSettings:
        """What the chat on show uses (the store's answer)."""
        return self.store.effective()

    @property
    def chat_settings(self) -> ChatSettings:
        """What the chat on show changes from the defaults (kept by the store)."""
        return self.store.chat

    def _save_chat_settings(self, chat_settings: ChatSettings) -> None:
        self.chat = replace(self.chat, settings=chat_settings.to_dict())
        if self.saved:
            self.storage.worker.chatSettingsRequested.emit(self.chat.id, chat_settings.to_dict())

    # ---- chats ---------------------------------------------------------------------

    def refresh_list(self) -> None:
        self.storage.worker.searchRequested.emit(self.query, self.query_reasoning)

    def search(self, query: str, reasoning: bool = False) -> None:
        """List the chats that contain `query` in an answer (or the title), and in reasoning when asked."""
        self.query, self.query_reasoning = query, reasoning
        self.refresh_list()

    def new_chat(self) -> None:
        """An empty chat on show; saved once it has a message. A reply still streaming goes on being saved."""
        self.chat = new_chat()
        self.saved = False
        self.shown_thread = []
        self.versions = {}
        self.store.show_chat(ChatSettings())
        self.chatOpened.emit()
        self.refresh_list()  # the new chat is listed at once

    def open_transcript(self, title: str, messages: Sequence[ChatMessage], model: str = "") -> None:
        """A new saved chat holding a conversation from elsewhere (an API request and its reply), on show.

        A leading system message becomes the chat's system prompt; later ones, and roles a chat
        cannot show (tools), are left out, so continuing the chat sends what it shows.
        """
        self.new_chat()
        self.chat = replace(self.chat, title=" ".join(title.split()) or self.chat.title)
        if messages and messages[0].role == "system":
            self.store.show_chat(replace(self.store.chat, system_prompt=messages[0].content))
        for message in messages:
            if message.role in ("user", "assistant") and (message.content or message.images):
                model_name = model if message.role == "assistant" else ""
                self._append(
                    new_message(
                        self.chat.id,
                        message.role,
                        message.content,
                        self._head_id(),
                        model=model_name,
                        images=message.images,
                    )
                )
        self.chatOpened.emit()

    def open_chat(self, chat_id: str) -> None:
        self.storage.worker.loadRequested.emit(chat_id)

    def rename_chat(self, chat_id: str, title: str) -> None:
        self.storage.worker.renameRequested.emit(chat_id, title)
        if chat_id == self.chat.id:
            self.chat = replace(self.chat, title=title)

    def pin_chat(self, chat_id: str, pinned: bool) -> None:
        self.storage.worker.pinRequested.emit(chat_id, pinned)

    def delete_chat(self, chat_id: str) -> None:
        self.storage.worker.deleteRequested.emit(chat_id)
        if chat_id == self.chat.id:
            self.new_chat()

    def export_chat(self, chat_id: str, kind: str, path: str) -> None:
        self.storage.worker.exportRequested.emit(chat_id, kind, path)

    def show_version(self, message_id: str, step: int) -> None:
        """Show the previous (-1) or next (+1) version of a message: another branch of the chat."""
        position, count = self.versions.get(message_id, (0, 1))
        if 0 <= position + step < count:
            self.storage.worker.switchVersionRequested.emit(message_id, step)

    # ---- turns ---------------------------------------------------------------------

    def window_messages(self) -> tuple[Message, ...]:
        """The thread as the context window gets it (a reply that produced nothing is left out; a message
        of images alone is kept)."""
        return tuple(m for m in self.shown_thread if m.text or m.images)

    def window_records(self) -> tuple[WindowTurn, ...]:
        """The thread for the context window as it crosses into the engine process: id, role, text, reasoning."""
        return tuple(WindowTurn(m.id, m.role, m.text, m.reasoning, m.images) for m in self.window_messages())

    def conversation(self) -> list[ChatMessage]:
        """The thread as chat messages, led by the system prompt when there is one; a reply keeps its
        reasoning beside its text, for a chat template that renders past reasoning."""
        system = self.effective().system_prompt
        head = [ChatMessage("system", system)] if system else []
        return head + [ChatMessage(m.role, m.text, m.reasoning, images=m.images) for m in self.window_messages()]

    def add_user_message(self, text: str, images: tuple[Path, ...] = ()) -> Message:
        return self._append(new_message(self.chat.id, "user", text, self._head_id(), images=images))

    def edit_message(self, message_id: str, text: str) -> Message:
        """A new version of a user message (with the same images): the thread continues from it; the old
        branch is kept."""
        index = self._index(message_id)
        old = self.shown_thread[index]
        _, count = self.versions.get(old.id, (0, 1))
        self.shown_thread = self.shown_thread[:index]
        edited = new_message(self.chat.id, "user", text, old.parent_id, images=old.images)
        return self._append(edited, version=(count, count + 1))

    def regenerate_point(self) -> Message | None:
        """Cut the thread back to the last user message so its reply can be written again; None if none."""
        for index in range(len(self.shown_thread) - 1, -1, -1):
            if self.shown_thread[index].role == "user":
                self._replaced = self.shown_thread[index + 1] if index + 1 < len(self.shown_thread) else None
                self.shown_thread = self.shown_thread[: index + 1]
                return self.shown_thread[index]
        return None

    def branch_point(self, message_id: str) -> Message:
        """Cut the thread back to before a reply so another version of it can be written (a fork)."""
        index = self._index(message_id)
        self._replaced = self.shown_thread[index]
        self.shown_thread = self.shown_thread[:index]
        return self._replaced

    def begin_reply(self, model: str, settings: dict[str, Any]) -> Message:
        """Save an empty streaming reply after the head and start recording its text.

        After `regenerate_point` the reply is a new version beside the one it replaces.
        """
        self._stop_recording()
        reply = new_message(
            self.chat.id,
            "assistant",
            "",
            self._head_id(),
            state=MessageState.STREAMING,
            model=model,
            settings=settings,
        )
        replaced, self._replaced = self._replaced, None
        version = None
        if replaced is not None:
            _, count = self.versions.get(replaced.id, (0, 1))
            version = (count, count + 1)
        self._append(reply, version=version)
        self._recorder = ReplyRecorder(reply.id, self.storage.worker.savePartialRequested.emit)
        self._partial_timer.start()
        return reply

    def reply_grew(self, text: str) -> None:
        if self._recorder is not None:
            self._recorder.append(text)

    def reasoning_grew(self, text: str) -> None:
        """More of the reply's reasoning streamed: recorded apart from its answer."""
        if self._recorder is not None:
            self._recorder.append_reasoning(text)

    def writing_on_show(self) -> bool:
        """Whether the reply being written (if any) is in the thread on show."""
        recorder = self._recorder
        return recorder is not None and any(m.id == recorder.message_id for m in self.shown_thread)

    def recorded_text(self) -> str:
        """What the reply being written holds so far (also while another chat is on show)."""
        return self._recorder.text if self._recorder is not None else ""

    def recorded_reasoning(self) -> str:
        """The reasoning the reply being written holds so far."""
        return self._recorder.reasoning if self._recorder is not None else ""

    def finish_reply(
        self, text: str, state: MessageState, stats: dict[str, Any], reasoning: str = ""
    ) -> Message | None:
        """Save the reply's final text, reasoning, state and stats (also when another chat is on show by now).

        Returns the finished message when it is in the thread on show, else None.
        """
        recorder, self._recorder = self._recorder, None
        self._partial_timer.stop()
        if recorder is None:
            return None
        self.storage.worker.finishMessageRequested.emit(recorder.message_id, text, state, dict(stats), reasoning)
        for index, message in enumerate(self.shown_thread):
            if message.id == recorder.message_id:
                self.shown_thread[index] = replace(
                    message, text=text, state=state, stats=dict(stats), reasoning=reasoning
                )
                return self.shown_thread[index]
        return None

    def delete_message(self, message_id: str) -> None:
        """Delete a message and what follows it, kept aside until `settle_delete` (Undo); the chat is shown
        again as the history then has it."""
        self.storage.worker.removeMessageRequested.emit(message_id)
        self.storage.worker.loadRequested.emit(self.chat.id)

    def settle_delete(self, message_id: str, undo: bool) -> None:
        """The offer to undo a `delete_message` ended: with `undo` the message (and what followed it) comes back
        and the chat on show shows it; else the delete is final, and the images only its messages showed go."""
        if undo:
            self.storage.worker.restoreMessageRequested.emit(message_id)
            self.storage.worker.loadRequested.emit(self.chat.id)
        else:
            self.storage.worker.releaseMessageRequested.emit(message_id)

    def drop_empty_reply(self, message_id: str) -> None:
        """A reply that never produced text (its prompt could not be built): forget it."""
        if self._recorder is not None and self._recorder.message_id == message_id:
            self._stop_recording()
        self.shown_thread = [m for m in self.shown_thread if m.id != message_id]
        self.versions.pop(message_id, None)
        self.storage.worker.deleteMessageRequested.emit(message_id)

    # ---- internals -----------------------------------------------------------------

    def _head_id(self) -> str | None:
        return self.shown_thread[-1].id if self.shown_thread else None

    def _index(self, message_id: str) -> int:
        for index, message in enumerate(self.shown_thread):
            if message.id == message_id:
                return index
        raise ValueError(f"message {message_id} is not in the conversation on show")

    def _append(self, message: Message, version: tuple[int, int] | None = None) -> Message:
        if not self.saved:
            self.chat = replace(self.chat, settings=self.store.chat.to_dict())
            self.storage.worker.saveChatRequested.emit(self.chat)
            self.saved = True
        self.storage.worker.saveMessageRequested.emit(message)
        self.shown_thread.append(message)
        self.versions[message.id] = version or (0, 1)
        return message

    def _stop_recording(self) -> None:
        self._partial_timer.stop()
        if self._recorder is not None:
            self._recorder.save()
            self._recorder = None

    def _save_partial_if_due(self) -> None:
        if self._recorder is not None:
            self._recorder.save_if_due()

    def _on_opened(self, notices: list[str]) -> None:
        for message in [*self._pending_notices, *notices]:
            self.notice.emit(message)
        self._pending_notices = []
        self.refresh_list()

    def _on_chats_found(self, query: str, reasoning: bool, hits: list[SearchHit]) -> None:
        if (query, reasoning) == (self.query, self.query_reasoning):
            self.chatsListed.emit(hits)

    def _on_chat_loaded(self, chat: Chat, thread: list[Message], versions: dict[str, tuple[int, int]]) -> None:
        self.chat = chat
        self.saved = True
        self.shown_thread = list(thread)
        self.versions = dict(versions)
        self.store.show_chat(ChatSettings.from_dict(chat.settings))
        self.chatOpened.emit()


def stats_dict(stats: ReplyStats) -> dict[str, Any]:
    """ReplyStats as JSON-ready data for the chat history."""
    data = asdict(stats)
    data["stop_reason"] = stats.stop_reason.value
    return data
