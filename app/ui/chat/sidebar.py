"""The chat list: new chat, search by text, open, rename, export and delete.

The sidebar only shows what it is given (`set_chats`) and says what the user wants as
signals; the chat session does the work on the storage thread.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.core.chat.store import Chat, SearchHit
from app.core.support.formatting import fill
from app.ui.chat.chat_list_items import DETAIL, GROUP, NEEDLE, ChatItemDelegate, date_group
from app.ui.widgets.core_text import word
from app.ui.widgets.icons import set_icon
from app.ui.widgets.locale_format import date_time
from app.ui.widgets.save_place import in_documents
from app.ui.widgets.tooltips import plain_tooltip

SEARCH_DELAY_MS = 250
CHAT_ID = Qt.ItemDataRole.UserRole
TITLE = Qt.ItemDataRole.UserRole + 1
PINNED = Qt.ItemDataRole.UserRole + 5


class ChatSidebar(QWidget):
    chatActivated = Signal(str)  # chat id
    newChatRequested = Signal()
    renameRequested = Signal(str, str)  # chat id, new title
    deleteRequested = Signal(str)  # chat id
    pinRequested = Signal(str, bool)  # chat id, pinned
    exportRequested = Signal(str, str, str)  # chat id, "markdown" or "json", file path
    searchChanged = Signal(str, bool)  # the text searched for, whether replies' reasoning is searched too

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        top = QHBoxLayout()
        self.search = QLineEdit(self)
        self.search.setAccessibleName(self.tr("Search chats"))
        self.search.setPlaceholderText(self.tr("Search chats…"))
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip(self.tr("Find chats whose title or messages contain this text"))
        self.new_button = QPushButton(self.tr("New chat"), self)
        self.new_button.setToolTip(self.tr("Start an empty conversation (Ctrl+N)"))
        set_icon(self.new_button, "new-chat")
        top.addWidget(self.search, 1)
        top.addWidget(self.new_button)
        layout.addLayout(top)
        self.search_reasoning = QCheckBox(self.tr("Search reasoning too"), self)
        self.search_reasoning.setToolTip(
            self.tr("Also find chats where the text is only in a thinking model's reasoning, not in its answers")
        )
        self.search_reasoning.hide()  # offered while there is something to search for
        layout.addWidget(self.search_reasoning)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Chats"))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setEditTriggers(QListWidget.EditTrigger.EditKeyPressed | QListWidget.EditTrigger.SelectedClicked)
        self.list.setUniformItemSizes(False)
        self.list.setItemDelegate(ChatItemDelegate(self.list))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # long titles end in "…"
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        layout.addWidget(self.list, 1)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._ask_search)
        self.search.textChanged.connect(self._search_edited)
        self.search_reasoning.toggled.connect(lambda _checked: self._search_timer.start())
        self.new_button.clicked.connect(self.newChatRequested)
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        self.list.itemChanged.connect(self._renamed)
        self.list.customContextMenuRequested.connect(self._show_menu)
        self._current: str | None = None
        self._writing: str | None = None  # the chat whose reply is being written
        self._filling = False

    def _search_edited(self, text: str) -> None:
        self.search_reasoning.setVisible(bool(text.strip()) or self.search_reasoning.isChecked())
        self._search_timer.start()

    def _ask_search(self) -> None:
        self.searchChanged.emit(self.search.text().strip(), self.search_reasoning.isChecked())

    # ---- what is shown -------------------------------------------------------------

    def set_chats(self, hits: list[SearchHit], unsaved: Chat | None = None) -> None:
        """Show these chats in date groups (pinned first), keeping the current one selected.

        `unsaved` is a new chat on show that has no message yet: it is listed at the top at once.
        """
        self._filling = True
        self.list.clear()
        needle = self.search.text().strip()
        group = None
        if unsaved is not None and not needle:
            self._add_group(date_group(unsaved.updated, False))
            group = date_group(unsaved.updated, False)
            self._add_chat(unsaved, "", needle, self.tr("no message yet"))
        for hit in hits:
            label = date_group(hit.chat.updated, hit.chat.pinned)
            if label != group:
                self._add_group(label)
                group = label
            self._add_chat(hit.chat, hit.snippet, needle, hit.model)
        self._filling = False
        self.set_current(self._current)
        self.set_writing(self._writing)
        if not hits and needle:
            placeholder = QListWidgetItem(self.tr("No chat contains this text"))
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(placeholder)

    def _add_group(self, label: str) -> None:
        header = QListWidgetItem()
        header.setData(GROUP, label)
        header.setData(Qt.ItemDataRole.AccessibleTextRole, label)
        header.setFlags(Qt.ItemFlag.NoItemFlags)
        self.list.addItem(header)

    def _add_chat(self, chat: Chat, snippet: str, needle: str, model: str) -> None:
        title = word(chat.title)  # "New chat" in the reader's language
        item = QListWidgetItem(title)
        item.setData(CHAT_ID, chat.id)
        item.setData(TITLE, title)
        item.setData(PINNED, chat.pinned)
        item.setData(DETAIL, snippet or model)
        item.setData(NEEDLE, needle if snippet else "")
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        when = date_time(chat.updated)
        tip = fill(self.tr("Last message {when}"), when=when)
        if model:
            tip += "\n" + fill(self.tr("Model: {model}"), model=model)
        if snippet:
            tip += "\n" + snippet
        item.setToolTip(plain_tooltip(tip))  # the snippet is a model's or a user's text
        self.list.addItem(item)

    def set_current(self, chat_id: str | None) -> None:
        self._current = chat_id
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(CHAT_ID) == chat_id:
                self.list.setCurrentItem(item)
                return
        self.list.clearSelection()

    def set_writing(self, chat_id: str | None) -> None:
        """Mark the chat whose reply is being written (it goes on while another chat is open)."""
        self._writing = chat_id
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay)
        filling, self._filling = self._filling, True  # a changed font is no rename
        for row in range(self.list.count()):
            item = self.list.item(row)
            if not item.data(CHAT_ID):
                continue
            writing = item.data(CHAT_ID) == chat_id
            font = item.font()
            font.setItalic(writing)
            item.setFont(font)
            item.setIcon(icon if writing else QIcon())
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, self.tr("writing a reply") if writing else "")
        self._filling = filling

    def writing(self) -> str | None:
        return self._writing

    def step(self, offset: int) -> None:
        """Open the chat `offset` rows below the one on show (above when negative), staying within the list."""
        rows = [row for row in range(self.list.count()) if self.list.item(row).data(CHAT_ID)]
        if not rows:
            return
        ids = [self.list.item(row).data(CHAT_ID) for row in rows]
        index = ids.index(self._current) + offset if self._current in ids else 0
        item = self.list.item(rows[max(0, min(len(rows) - 1, index))])
        self.list.setCurrentItem(item)
        self._activated(item)

    def chat_ids(self) -> list[str]:
        return [self.list.item(r).data(CHAT_ID) for r in range(self.list.count()) if self.list.item(r).data(CHAT_ID)]

    # ---- what the user does ----------------------------------------------------------

    def rename(self, chat_id: str) -> None:
        """Start editing the chat's title in place."""
        item = self._item(chat_id)
        if item is not None:
            self._filling = True
            item.setText(item.data(TITLE))
            self._filling = False
            self.list.editItem(item)

    def delete(self, chat_id: str) -> None:
        item = self._item(chat_id)
        if item is not None and self.confirm_delete(item.data(TITLE)):
            self.deleteRequested.emit(chat_id)

    def export(self, chat_id: str, kind: str) -> None:
        item = self._item(chat_id)
        if item is None:
            return
        path = self.ask_export_path(item.data(TITLE), kind)
        if path:
            self.exportRequested.emit(chat_id, kind, path)

    def confirm_delete(self, title: str) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Delete chat"),
            fill(self.tr("Delete “{title}” and all its messages? This cannot be undone."), title=title),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def ask_export_path(self, title: str, kind: str) -> str:
        suffix, pattern = (".json", self.tr("JSON (*.json)")) if kind == "json" else (".md", self.tr("Markdown (*.md)"))
        safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip() or "chat"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export chat"), in_documents(safe + suffix), pattern)
        return path

    def _item(self, chat_id: str) -> QListWidgetItem | None:
        for row in range(self.list.count()):
            if self.list.item(row).data(CHAT_ID) == chat_id:
                return self.list.item(row)
        return None

    def _activated(self, item: QListWidgetItem) -> None:
        chat_id = item.data(CHAT_ID)
        if chat_id and chat_id != self._current:
            self._current = chat_id
            self.chatActivated.emit(chat_id)

    def _renamed(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        title = " ".join(item.text().split())
        chat_id = item.data(CHAT_ID)
        if not title or title == item.data(TITLE):
            self._filling = True
            item.setText(item.data(TITLE))
            self._filling = False
            return
        item.setData(TITLE, title)
        self.renameRequested.emit(chat_id, title)

    def _show_menu(self, position: QPoint) -> None:
        item = self.list.itemAt(position)
        chat_id = item.data(CHAT_ID) if item is not None else None
        if item is None or not chat_id:
            return
        menu = QMenu(self)
        pinned = bool(item.data(PINNED))
        menu.addAction(
            self.tr("Unpin") if pinned else self.tr("Pin"), lambda: self.pinRequested.emit(chat_id, not pinned)
        )
        menu.addAction(self.tr("Rename"), lambda: self.rename(chat_id))
        menu.addAction(self.tr("Export as Markdown…"), lambda: self.export(chat_id, "markdown"))
        menu.addAction(self.tr("Export as JSON…"), lambda: self.export(chat_id, "json"))
        menu.addSeparator()
        menu.addAction(self.tr("Delete…"), lambda: self.delete(chat_id))
        menu.exec(self.list.viewport().mapToGlobal(position))
