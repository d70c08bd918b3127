"""The tools the user said "Always allow this tool" to, listed on the MCP servers page to be taken back.

The list is the settings store's (`Settings.tools_always_allowed`, kept in the settings file, so it holds
after a restart); "Ask before each call" removes the selected tool from it, and the next call of that
tool is asked about again, in a reply being written too.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.ui.settings.store import SettingsStore

PAIR_ROLE = Qt.ItemDataRole.UserRole  # an item's (server, tool)


class AlwaysAllowedTools(QWidget):
    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = store
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel(self.tr("Tools that run without asking (Always allow this tool):"), self)
        self.heading.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Tools always allowed"))
        self.list.currentItemChanged.connect(self._enable)
        self.ask_button = QPushButton(self.tr("As&k before each call"), self)
        self.ask_button.setToolTip(self.tr("The selected tool is asked about again before it runs"))
        self.ask_button.clicked.connect(self.ask_again)
        row = QHBoxLayout()
        row.addWidget(self.list, 1)
        row.addWidget(self.ask_button, 0, Qt.AlignmentFlag.AlignTop)
        column.addWidget(self.heading)
        column.addLayout(row)
        store.toolsAllowedChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self.list.clear()
        for server, tool in self._store.settings.tools_always_allowed:
            item = QListWidgetItem(fill(self.tr("{tool} on {server}"), tool=tool, server=server), self.list)
            item.setData(PAIR_ROLE, (server, tool))
        if not self.list.count():
            self.list.addItem(self.tr("None: every call is asked about"))
            self.list.item(0).setFlags(Qt.ItemFlag.NoItemFlags)
        self._enable()

    def ask_again(self) -> None:
        """The selected tool is asked about before each call from now on."""
        item = self.list.currentItem()
        pair = item.data(PAIR_ROLE) if item is not None else None
        if pair is None:
            return
        server, tool = pair
        self._store.set_defaults(self._store.settings.without_tool_always_allowed(server, tool))

    def _enable(self) -> None:
        item = self.list.currentItem()
        self.ask_button.setEnabled(item is not None and item.data(PAIR_ROLE) is not None)
