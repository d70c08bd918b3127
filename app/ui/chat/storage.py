"""The storage worker: the chat history database and the settings file, off the GUI thread.

One QObject in its own QThread owns the `ChatStore` (an sqlite3 connection stays in the
thread that opened it). Writes are fire-and-forget queued signals, carried out in the
order they were sent; message ids are made by the GUI (`new_message`), so nothing waits
for the disk. Reads answer with a signal. Every failure becomes `failed(message)`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from app.core.chat.store import Chat, ChatStore, ChatStoreError, Message, MessageState, RemovedMessages
from app.core.settings import Settings, SettingsError, save_settings
from app.core.support.atomic import atomic_write
from app.core.support.formatting import fill
from app.core.support.user_text import text_of
from app.ui.threads import WorkerThread


class StorageWorker(QObject):
    openRequested = Signal()
    searchRequested = Signal(str, bool)  # query ("" lists every chat), whether reasoning is searched too
    loadRequested = Signal(str)  # chat id
    saveChatRequested = Signal(object)  # Chat (new, with its settings)
    renameRequested = Signal(str, str)  # chat id, title
    pinRequested = Signal(str, bool)  # chat id, pinned
    deleteRequested = Signal(str)  # chat id
    chatSettingsRequested = Signal(str, object)  # chat id, settings dict
    saveMessageRequested = Signal(object)  # Message: inserted, becomes the chat's head
    savePartialRequested = Signal(str, str, str)  # message id, answer and reasoning so far
    finishMessageRequested = Signal(str, str, object, object, str)  # message id, text, MessageState, stats, reasoning
    deleteMessageRequested = Signal(str)  # message id (an empty reply that never started)
    removeMessageRequested = Signal(str)  # message id: deleted, kept aside for Undo until released
    restoreMessageRequested = Signal(str)  # message id of a removal kept aside: put it back (Undo)
    releaseMessageRequested = Signal(str)  # message id of a removal kept aside: the delete is final
    switchVersionRequested = Signal(str, int)  # message id, step (-1 previous version, +1 next)
    exportRequested = Signal(str, str, str)  # chat id, "markdown" or "json", file path
    saveSettingsRequested = Signal(object)  # Settings
    closeRequested = Signal()  # after every write sent before it: close the database, end the thread

    opened = Signal(object)  # list[str]: notices for the user (e.g. a damaged file set aside)
    chatsFound = Signal(str, bool, object)  # query, whether reasoning was searched, list[SearchHit]
    chatLoaded = Signal(object, object, object)  # Chat, list[Message] (the thread on show), versions dict
    chatsChanged = Signal()  # titles or order may have changed: list again
    exported = Signal(str)  # path
    failed = Signal(object)  # why, as a str (a core text keeps its template)

    def __init__(self, database: Path, settings_file: Path) -> None:
        super().__init__()
        self._database = database
        self._settings_file = settings_file
        self._store: ChatStore | None = None
        self._removed: dict[str, RemovedMessages] = {}  # deletes that Undo may still take back, by message id
        self.openRequested.connect(self._open)
        self.searchRequested.connect(self._search)
        self.loadRequested.connect(self._load)
        self.saveChatRequested.connect(self._save_chat)
        self.renameRequested.connect(self._rename)
        self.pinRequested.connect(self._pin)
        self.deleteRequested.connect(self._delete)
        self.chatSettingsRequested.connect(self._chat_settings)
        self.saveMessageRequested.connect(self._save_message)
        self.savePartialRequested.connect(self._save_partial)
        self.finishMessageRequested.connect(self._finish_message)
        self.deleteMessageRequested.connect(self._delete_message)
        self.removeMessageRequested.connect(self._remove_message)
        self.restoreMessageRequested.connect(self._restore_message)
        self.releaseMessageRequested.connect(self._release_message)
        self.switchVersionRequested.connect(self._switch_version)
        self.exportRequested.connect(self._export)
        self.saveSettingsRequested.connect(self._save_settings)
        self.closeRequested.connect(self._close)

    def _require(self) -> ChatStore:
        if self._store is None:
            raise ChatStoreError(
                self.tr(
                    "The chat history is not open, so this was not saved. Restart Glassbox; if it happens again, "
                    "check the message shown at startup."
                )
            )
        return self._store

    @Slot()
    def _open(self) -> None:
        try:
            self._store = ChatStore(self._database)
            self._store.recover_interrupted()
            self._store.sweep_stray_images()  # attachments never sent, images an earlier run prepared and dropped
        except ChatStoreError as error:
            self.failed.emit(text_of(error))
            return
        self.opened.emit(list(self._store.notices))

    @Slot(str, bool)
    def _search(self, query: str, reasoning: bool) -> None:
        self._run(lambda store: self.chatsFound.emit(query, reasoning, store.search(query, reasoning=reasoning)))

    @Slot(str)
    def _load(self, chat_id: str) -> None:
        self._run(lambda store: self._emit_chat(store, chat_id))

    def _emit_chat(self, store: ChatStore, chat_id: str) -> None:
        self.chatLoaded.emit(store.chat(chat_id), store.thread(chat_id), store.versions(chat_id))

    @Slot(object)
    def _save_chat(self, chat: Chat) -> None:
        self._run(lambda store: store.save_chat(chat))
        self.chatsChanged.emit()

    @Slot(str, str)
    def _rename(self, chat_id: str, title: str) -> None:
        self._run(lambda store: store.rename_chat(chat_id, title))
        self.chatsChanged.emit()

    @Slot(str, bool)
    def _pin(self, chat_id: str, pinned: bool) -> None:
        self._run(lambda store: store.set_pinned(chat_id, pinned))
        self.chatsChanged.emit()

    @Slot(str)
    def _delete(self, chat_id: str) -> None:
        self._run(lambda store: store.delete_chat(chat_id))
        self.chatsChanged.emit()

    @Slot(str, object)
    def _chat_settings(self, chat_id: str, settings: dict[str, Any]) -> None:
        self._run(lambda store: store.set_chat_settings(chat_id, settings))

    @Slot(object)
    def _save_message(self, message: Message) -> None:
        def save(store: ChatStore) -> None:
            store.save_message(message)
            if message.role == "user":  # the chat may have got its title, and it is now the most recent
                self.chatsChanged.emit()

        self._run(save)

    @Slot(str, str, str)
    def _save_partial(self, message_id: str, text: str, reasoning: str) -> None:
        self._run(lambda store: store.save_partial(message_id, text, reasoning))

    @Slot(str, str, object, object, str)
    def _finish_message(
        self, message_id: str, text: str, state: MessageState, stats: dict[str, Any], reasoning: str
    ) -> None:
        self._run(lambda store: store.finish_message(message_id, text, state, stats, reasoning))

    @Slot(str)
    def _delete_message(self, message_id: str) -> None:
        self._run(lambda store: store.delete_message(message_id))

    @Slot(str)
    def _remove_message(self, message_id: str) -> None:
        def remove(store: ChatStore) -> None:
            self._removed[message_id] = store.remove_message(message_id)

        self._run(remove)

    @Slot(str)
    def _restore_message(self, message_id: str) -> None:
        removed = self._removed.pop(message_id, None)
        if removed is not None:
            self._run(lambda store: store.restore_messages(removed))

    @Slot(str)
    def _release_message(self, message_id: str) -> None:
        removed = self._removed.pop(message_id, None)
        if removed is not None:
            self._run(lambda store: store.release_images(removed))

    @Slot(str, int)
    def _switch_version(self, message_id: str, step: int) -> None:
        def switch(store: ChatStore) -> None:
            versions = store.siblings(message_id)
            position = next(i for i, m in enumerate(versions) if m.id == message_id)
            target = versions[max(0, min(len(versions) - 1, position + step))]
            store.switch_branch(target.id)
            self._emit_chat(store, target.chat_id)

        self._run(switch)

    @Slot(str, str, str)
    def _export(self, chat_id: str, kind: str, path: str) -> None:
        def export(store: ChatStore) -> None:
            text = store.export_json(chat_id) if kind == "json" else store.export_markdown(chat_id)
            try:
                atomic_write(Path(path), text)
            except OSError as error:
                raise ChatStoreError(
                    fill(
                        self.tr("The chat could not be written to {path} ({error}). Choose a folder you can write to."),
                        path=path,
                        error=error.strerror or error,
                    )
                ) from error
            self.exported.emit(path)

        self._run(export)

    @Slot(object)
    def _save_settings(self, settings: Settings) -> None:
        try:
            save_settings(self._settings_file, settings)
        except SettingsError as error:
            self.failed.emit(text_of(error))

    def _run(self, action: Any) -> None:
        try:
            action(self._require())
        except ChatStoreError as error:
            self.failed.emit(text_of(error))

    @Slot()
    def _close(self) -> None:
        for message_id in list(self._removed):  # the window closes: deletes not undone are final
            self._release_message(message_id)
        if self._store is not None:
            self._store.close()
            self._store = None
        QThread.currentThread().quit()


class StorageThread:
    """The storage worker's thread; it ends only after every write sent before it was asked to stop."""

    def __init__(self, database: Path, settings_file: Path) -> None:
        self.worker = StorageWorker(database, settings_file)
        # The close request is queued behind the pending writes, so everything sent so far is saved first.
        self.thread = WorkerThread(self.worker, "chat-storage", end_loop=self.worker.closeRequested.emit)
        self.thread.start()

    def open(self) -> None:
        """Open the database (answered by `opened` or `failed`): connect to the worker's signals first."""
        self.worker.openRequested.emit()

    def shutdown(self) -> bool:
        """Write what was sent, close the database and wait for the thread; True once it has ended."""
        self.thread.request_stop()
        return self.thread.wait()
