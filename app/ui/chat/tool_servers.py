"""Which MCP servers' tools the chat on show may call, and which of those tools: "Tools: none" or
"Tools: time (1 of 2), git", a menu of the servers in mcp.json to check and uncheck, each chosen server's
tools under it with a checkbox each.

The choice is two of the chat's own settings (`ChatSettings.tool_servers` and `tools_off`, kept by the
settings store and saved with the chat): a tool of a chosen server is on unless switched off, so a tool a
server adds later is on. The menu is read from mcp.json each time it opens, names only (no secret is
read); a server the chat uses that is no longer configured stays listed, checked, so it can be
unchecked. A file that cannot be read is said in the menu, in one line. The tools are those of the
servers that run (`server_tools`, set by the window: nothing is started, nor waited for, to list them);
a server not started yet says so in one line, and its tools are listed once it runs (its first tool turn,
or the MCP servers page, starts it). Checking a tool leaves the menu open, to check another.

A push button rather than a tool button: it keeps room for its menu arrow, which a tool button draws over
the end of its text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QMenu, QPushButton, QWidget, QWidgetAction

from app.core.support.formatting import fill
from app.core.tools.config import config_file, parse_servers, read_document
from app.core.tools.errors import McpConfigError
from app.core.types.tools import ToolSpec
from app.ui.settings.store import SettingsStore

ServerNames = Callable[[], list[str]]  # the configured servers' names; raises McpConfigError
ServerTools = Callable[[str], tuple[ToolSpec, ...] | None]  # a running server's tools; None: it does not run
TOOL_INDENT = 24  # pixels a tool's checkbox sits right of its server's line


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
        self.server_tools: ServerTools = lambda _name: None  # the window's MCP servers (app/ui/tools/opener.py)
        self.setToolTip(self.tr("The MCP servers and tools the model may call in this chat (Tools → MCP servers)"))
        self.menu_ = QMenu(self)
        self.menu_.aboutToShow.connect(self.fill_menu)
        self.setMenu(self.menu_)
        store.chatChanged.connect(self._show_choice)
        self._show_choice()

    def fill_menu(self) -> None:
        """The servers to choose from, this chat's checked, each with its tools under it."""
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
            if name in chosen and name in names:  # one no longer configured has no tools to list
                self._add_tools(name)
        self._show_choice()  # a server may have started since

    def tool_boxes(self, server: str) -> dict[str, QCheckBox]:
        """The checkboxes of the server's tools in the menu as last filled, by tool name."""
        boxes: dict[str, QCheckBox] = {}
        for action in self.menu_.actions():
            line = action.defaultWidget() if isinstance(action, QWidgetAction) else None
            box = line.findChild(QCheckBox) if line is not None else None
            if box is not None and box.property("server") == server:
                boxes[box.text()] = box
        return boxes

    def set_server(self, name: str, on: bool) -> None:
        """Offer the server's tools in this chat, or stop offering them."""
        servers = tuple(s for s in self._store.chat.tool_servers if s != name) + ((name,) if on else ())
        self._store.edit_chat(replace(self._store.chat, tool_servers=servers))

    def set_tool(self, server: str, tool: str, on: bool) -> None:
        """Offer one tool of a chosen server in this chat, or stop offering it."""
        self._store.edit_chat(self._store.chat.with_tool(server, tool, on))

    def _add_tools(self, server: str) -> None:
        tools = self.server_tools(server)
        if not tools:
            said = (
                self.tr("Not running: start it to list its tools") if tools is None else self.tr("It offers no tools")
            )
            self.menu_.addAction(said).setEnabled(False)
            return
        chat = self._store.chat
        for tool in tools:
            self.menu_.addAction(self._tool_line(server, tool, chat.tool_on(server, tool.name)))

    def _tool_line(self, server: str, tool: ToolSpec, on: bool) -> QWidgetAction:
        """The tool's checkbox, indented under its server's line."""
        line = QWidget(self.menu_)
        box = QCheckBox(tool.name, line)
        box.setProperty("server", server)
        box.setToolTip(tool.description)
        box.setChecked(on)
        box.toggled.connect(lambda checked: self.set_tool(server, tool.name, checked))
        layout = QHBoxLayout(line)
        layout.setContentsMargins(TOOL_INDENT, 2, 8, 2)
        layout.addWidget(box)
        line.setFocusProxy(box)  # the menu's arrow keys reach the checkbox, Space checks it
        action = QWidgetAction(self.menu_)
        action.setDefaultWidget(line)  # the action owns it: cleared with the menu
        return action

    def _show_choice(self) -> None:
        servers = self._store.chat.tool_servers
        text = (
            fill(self.tr("Tools: {servers}"), servers=", ".join(self._server_text(name) for name in servers))
            if servers
            else self.tr("Tools: none")
        )
        self.setText(text)
        self.setAccessibleName(text)

    def _server_text(self, server: str) -> str:
        """The server's name, with how many of its tools are on when it runs, or how many are off when it does not."""
        tools = self.server_tools(server)
        chat = self._store.chat
        if tools is not None:
            on = sum(chat.tool_on(server, tool.name) for tool in tools)
            return fill(self.tr("{server} ({on} of {total})"), server=server, on=on, total=len(tools))
        off = sum(1 for s, _tool in chat.tools_off if s == server)
        return fill(self.tr("{server} ({off} off)"), server=server, off=off) if off else server
