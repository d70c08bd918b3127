"""What a message's menus and actions start: its context menu, editing it (in place or in a dialog)
and deleting it with the messages after it (with Undo, app/ui/chat/undo_delete.py).

The chat (Conversations) gives each message widget its menu with `attach` and its hover
buttons call `edit_in_place` and `delete_message`; what only the chat can do it is asked
for with a signal: continue from an edited message (`editSubmitted`), write the last reply
again (`regenerateRequested`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu

from app.core.chat.store import Message
from app.core.state import AppState
from app.ui.chat.edit_dialog import ask_edited_text
from app.ui.chat.session import ChatSession
from app.ui.chat.undo_delete import UndoDelete
from app.ui.chat.view import ChatView, MessageWidget


class MessageMenus(QObject):
    editSubmitted = Signal(str, str)  # message id, new text: continue the chat from it
    regenerateRequested = Signal()  # write the last reply again

    def __init__(
        self, state: AppState, session: ChatSession, chat_view: ChatView, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.session = session
        self.chat_view = chat_view
        self.undo = UndoDelete(chat_view)  # the shell places it over the chat's top
        self.undo.undone.connect(self._on_undone)
        self.undo.finished.connect(self._on_delete_final)
        session.chatOpened.connect(self._on_chat_opened)

    def edit_in_place(self, message_id: str) -> None:
        """Edit a message of yours inside the conversation; Enter continues the chat from the new text."""
        if not self.state.can_send:
            return
        widget = next((w for w in self.chat_view.messages() if w.key == message_id), None)
        if widget is None:
            return
        editor = widget.begin_edit()

        def submitted(text: str) -> None:
            widget.end_edit()
            self.editSubmitted.emit(message_id, text)

        editor.submitted.connect(submitted)
        editor.cancelled.connect(widget.end_edit)

    def delete_message(self, message_id: str) -> None:
        """Delete a message and the messages after it on this branch, and offer Undo: one click deletes,
        wherever it is asked for (the hover button, the message's menu), and one click brings it back."""
        if not self.state.can_send:
            return
        ids = [m.id for m in self.session.shown_thread]
        if message_id not in ids:
            return
        following = len(ids) - ids.index(message_id) - 1
        _position, versions = self.session.versions.get(message_id, (0, 1))
        self.session.delete_message(message_id)
        self.undo.offer(message_id, self.session.chat.id, following, versions)

    @Slot(str)
    def _on_undone(self, message_id: str) -> None:
        self.session.settle_delete(message_id, undo=True)

    @Slot(str)
    def _on_delete_final(self, message_id: str) -> None:
        self.session.settle_delete(message_id, undo=False)

    def _on_chat_opened(self) -> None:
        """Another chat on show: a delete in the one before is final (Undo would change a chat not shown)."""
        if self.session.chat.id != self.undo.chat_id:
            self.undo.finish()

    def attach(self, widget: MessageWidget) -> None:
        """Give a message widget its context menu."""
        widget.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        widget.customContextMenuRequested.connect(lambda point, w=widget: self._show_message_menu(w, point))

    def _show_message_menu(self, widget: MessageWidget, point: QPoint) -> None:
        menu = self.menu(widget.key)
        menu.exec(widget.mapToGlobal(point))

    def menu(self, message_id: str) -> QMenu:
        """Copy, edit and continue (user messages), regenerate (the last reply), other versions, delete."""
        menu = QMenu(self.chat_view)
        message = next((m for m in self.session.shown_thread if m.id == message_id), None)
        if message is None:
            return menu
        idle = self.state.can_send
        menu.addAction(self.tr("Copy text"), lambda: QGuiApplication.clipboard().setText(message.text))
        if message.role == "user":
            edit = menu.addAction(self.tr("Edit and continue…"), lambda: self._ask_and_edit(message))
            edit.setEnabled(idle)
        if message.role == "assistant" and self.session.shown_thread and self.session.shown_thread[-1].id == message.id:
            regenerate = menu.addAction(self.tr("Regenerate"), self.regenerateRequested.emit)
            regenerate.setEnabled(idle)
        position, count = self.session.versions.get(message.id, (0, 1))
        if count > 1:
            previous = menu.addAction(self.tr("Previous version"), lambda: self.session.show_version(message.id, -1))
            previous.setEnabled(position > 0 and not self.state.is_streaming)
            following = menu.addAction(self.tr("Next version"), lambda: self.session.show_version(message.id, 1))
            following.setEnabled(position < count - 1 and not self.state.is_streaming)
        menu.addSeparator()
        delete = menu.addAction(self.tr("Delete"), lambda: self.delete_message(message.id))
        delete.setEnabled(idle)
        return menu

    def _ask_and_edit(self, message: Message) -> None:
        text = ask_edited_text(message.text, self.chat_view)
        if text is not None:
            self.editSubmitted.emit(message.id, text)

    def edit_last(self) -> None:
        """Edit your last message in a dialog (Chat → Edit last message…)."""
        last_user = next((m for m in reversed(self.session.shown_thread) if m.role == "user"), None)
        if last_user is not None and not self.state.is_streaming:
            self._ask_and_edit(last_user)
