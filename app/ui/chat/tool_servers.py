"""Which MCP servers' tools the chat on show may call: "Tools: none" or "Tools: time, git", a menu of the
servers in mcp.json to check and uncheck.

The choice is one of the chat's own settings (`ChatSettings.tool_servers`, kept by the settings store
and saved with the chat). The menu is read from mcp.json each time it opens, names only (no secret is
read); a server the chat uses that is no longer configured stays listed, checked, so it can be
unchecked. A file that cannot be read is said in the menu, in one line.

A push button with a menu rather than a tool button: its style leaves room for the menu's arrow beside the
text (a tool button's arrow is drawn over the text's end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtWidgets import QMenu, QPushButton, QWidget

from app.core.support.formatting import fill
from app.core.tools.config import config_file, parse_servers, read_document
from app.core.tools.errors import McpConfigError
from app.ui.settings.store import SettingsStore

ServerNames = Callable[[], list[str]]  # the configured servers' names; raises McpConfigError


def configured_names() -> list[str]:
    """The names of the servers in mcp.json (none without the file)."""
    path = config_file()
    if not path.exists():
        return []
    servers, _problems = parse_servers(read_document(path), str(path))
    return [server.name for server in servers]


class ToolServersButton(QPushButton):
    def __init__(
        self, store: SettingsStore, parent: QWidget | None = None, names: ServerNames = configured_names
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._names = names
        self.setToolTip(self.tr("The MCP servers whose tools the model may call in this chat (Tools → MCP servers)"))
        self.menu_ = QMenu(self)
        self.menu_.aboutToShow.connect(self.fill_menu)
        self.setMenu(self.menu_)
        store.chatChanged.connect(self._show_choice)
        self._show_choice()

    def fill_menu(self) -> None:
        """The servers to choose from, this chat's checked."""
        self.menu_.clear()
        chosen = self._store.chat.tool_servers
        try:
            names = self._names()
        except McpConfigError as error:
            self.menu_.addAction(str(error)).setEnabled(False)
            names = []
        listed = list(dict.fromkeys([*names, *chosen]))
        if not listed:
            self.menu_.addAction(self.tr("No MCP server is configured (Tools → MCP servers)")).setEnabled(False)
        for name in listed:
            action = self.menu_.addAction(name)
            action.setCheckable(True)
            action.setChecked(name in chosen)
            action.toggled.connect(lambda on, server=name: self.set_server(server, on))

    def set_server(self, name: str, on: bool) -> None:
        """Offer the server's tools in this chat, or stop offering them."""
        servers = tuple(s for s in self._store.chat.tool_servers if s != name) + ((name,) if on else ())
        self._store.edit_chat(replace(self._store.chat, tool_servers=servers))

    def _show_choice(self) -> None:
        servers = self._store.chat.tool_servers
        none = self.tr("Tools: none")
        text = fill(self.tr("Tools: {servers}"), servers=", ".join(servers)) if servers else none
        self.setText(text)
        self.setAccessibleName(text)
