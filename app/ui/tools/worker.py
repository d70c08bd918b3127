"""The MCP servers' work off the GUI thread: one worker thread owns the manager and runs its blocking calls.

Start, test and a new configuration are queued requests, run one after another (a stop is not
queued: it cancels a start under way, see `McpThread.stop_server`); each
server's status comes back as `statusChanged` (emitted from the manager's loop thread, so it is
queued to the GUI thread's receivers). At exit the thread's end closes the manager, which ends
every server process.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from app.core.tools.config import McpServer
from app.core.tools.errors import McpError
from app.core.tools.manager import McpManager, ServerState
from app.ui.threads import WorkerThread


class McpWorker(QObject):
    startRequested = Signal(str)
    testRequested = Signal(str)  # start it, or list its tools again when it runs
    configureRequested = Signal(object)  # tuple[McpServer, ...]
    statusChanged = Signal(object)  # ServerStatus
    failed = Signal(str, str)  # server, one line: a test of a running server that did not answer

    def __init__(self) -> None:
        super().__init__()
        self.manager = McpManager(on_status=self.statusChanged.emit)
        self.startRequested.connect(self._start)
        self.testRequested.connect(self._test)
        self.configureRequested.connect(self._configure)

    @Slot(str)
    def _start(self, name: str) -> None:
        if name in self.manager.names():
            self.manager.start(name)  # its status says how that went

    @Slot(str)
    def _test(self, name: str) -> None:
        if name not in self.manager.names():
            return
        if self.manager.status(name).state is not ServerState.RUNNING:
            self.manager.start(name)
            return
        try:
            self.manager.refresh_tools(name)
        except McpError as error:
            self.failed.emit(name, str(error))

    @Slot(object)
    def _configure(self, servers: tuple[McpServer, ...]) -> None:
        self.manager.configure(servers)


class McpThread:
    """The worker in its thread; `request_stop` ends the loop, and the thread's end closes every server."""

    def __init__(self) -> None:
        self.worker = McpWorker()
        self.thread = WorkerThread(self.worker, "mcp servers", on_end=self.worker.manager.close)
        self.thread.start()

    def stop_server(self, name: str) -> None:
        """Stop one server without waiting, from any thread: not queued behind a start (it cancels one)."""
        if name in self.worker.manager.names():
            self.worker.manager.stop_soon(name)

    def request_stop(self) -> None:
        self.thread.request_stop()
