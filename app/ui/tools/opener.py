"""Opens the MCP servers page; the MCP worker (and the SDK, slow to import) start only when it is first opened."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.core.types.tools import ToolSpec
from app.ui.settings.store import SettingsStore
from app.ui.threads import WorkerThread

if TYPE_CHECKING:
    from app.core.tools.connection import ToolInfo
    from app.core.tools.manager import McpManager
    from app.ui.tools.page import McpServersPage
    from app.ui.tools.worker import McpThread


class McpServersOpener(QObject):
    def __init__(self, parent: QWidget, store: SettingsStore | None = None) -> None:
        super().__init__(parent)
        self._window = parent
        self._store = store  # the page lists the tools always allowed from it
        self.mcp: McpThread | None = None
        self.page: McpServersPage | None = None

    def manager(self) -> McpManager:
        """The servers' manager (the page's and the chats' tool calls'), its worker started when first asked for."""
        return self._thread().worker.manager

    def chat_tools(self) -> tuple[ToolSpec, ...]:
        """The tools the chat on show offers, as far as known without starting a server: its running servers',
        but those it switched off."""
        if self._store is None:
            return ()
        chat = self._store.chat
        return self.running_tools(chat.tool_servers, chat.tools_off)

    def running_tools(self, servers: Sequence[str], off: Collection[tuple[str, str]] = ()) -> tuple[ToolSpec, ...]:
        """The tools of those of `servers` that run now, as a chat with them on (and the (server, tool) pairs `off`
        switched off) offers them; none is started (a chat's first tool turn starts them, or the page does)."""
        if self.mcp is None:  # no server runs yet; the SDK is not imported to say so (a second, on the GUI thread)
            return ()
        from app.core.turn.tool_rounds import offered_tools

        infos = [info for name in servers for info in self._listed(name) or ()]
        return tuple(tool.spec for tool in offered_tools(infos, off))

    def server_tools(self, name: str) -> tuple[ToolSpec, ...] | None:
        """The tools the server `name` offers a chat, when it runs now (None: it does not, or is not configured)."""
        if self.mcp is None:
            return None
        from app.core.turn.tool_rounds import offered_tools

        listed = self._listed(name)
        return None if listed is None else tuple(tool.spec for tool in offered_tools(listed))

    def _listed(self, name: str) -> tuple[ToolInfo, ...] | None:
        """The running server's listing; None when it does not run (nothing is started to know it)."""
        if self.mcp is None:
            return None
        from app.core.tools.errors import McpError
        from app.core.tools.manager import ServerState

        try:
            status = self.mcp.worker.manager.status(name)
        except McpError:  # not in mcp.json (any more)
            return None
        return status.tools if status.state is ServerState.RUNNING else None

    def open_page(self) -> None:
        from app.ui.tools.page import McpServersPage

        if self.page is None:
            self.page = McpServersPage(self._thread(), parent=self._window, store=self._store)
        self.page.show()
        self.page.raise_()
        self.page.activateWindow()

    def _thread(self) -> McpThread:
        from app.ui.tools.worker import McpThread

        if self.mcp is None:
            self.mcp = McpThread()
        return self.mcp

    def request_stop(self) -> None:
        if self.mcp is not None:
            self.mcp.request_stop()

    def threads(self) -> list[WorkerThread]:
        return [self.mcp.thread] if self.mcp is not None else []
