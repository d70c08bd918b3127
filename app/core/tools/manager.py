"""The MCP servers of one process: an asyncio loop on one thread, a synchronous facade for everyone else.

The window's workers, the CLI and (later) a turn call `start`, `stop`, `tools` and `call` from
their own threads; each blocks until its answer and never longer than its timeout. A server
starts when first used and runs until `stop` or `close`; its child process ends with it. A server
that fails (cannot start, dies, hangs, writes garbage) is FAILED with a one-line reason, and its
next use starts it afresh. Every failure reaches the caller as `McpError`; a stop flag set
during a call raises `CallStopped`.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import logging
import threading
import weakref
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

import mcp_types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError

from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.tools.config import McpServer
from app.core.tools.connection import ServerConnection, ToolInfo, describe_failure, list_tools
from app.core.tools.errors import CallStopped, McpError
from app.core.tools.results import DEFAULT_CAP_BYTES, ToolResult, result_from_mcp

log = logging.getLogger(__name__)

T = TypeVar("T")
STOP_POLL_S = 0.05  # how often a call looks at its stop flag
CLOSE_TIMEOUT_S = 15.0  # stopping every server at close: each stdio shutdown is bounded by the SDK (about 6 s)


class ServerState(Enum):
    STOPPED = "stopped"
    STARTING = "starting"
    RUNNING = "running"
    FAILED = "failed"


@dataclass(frozen=True)
class ServerStatus:
    name: str
    state: ServerState
    reason: str = ""  # why it FAILED
    tools: tuple[ToolInfo, ...] = ()  # when RUNNING


@dataclass(frozen=True)
class Timeouts:
    start_s: float = 60.0  # spawn, initialize and the first listing (npx and uvx may download first)
    list_s: float = 30.0
    call_s: float = 120.0


Progress = Callable[[float, float | None, str | None], None]

_managers: weakref.WeakSet[McpManager] = weakref.WeakSet()


class McpManager:
    """Owns the loop thread, the connections and each server's status; `close()` ends them all."""

    def __init__(
        self,
        servers: Iterable[McpServer] = (),
        *,
        timeouts: Timeouts = Timeouts(),
        cap_bytes: int = DEFAULT_CAP_BYTES,
        on_status: Callable[[ServerStatus], None] | None = None,
    ) -> None:
        self.timeouts = timeouts
        self.cap_bytes = cap_bytes
        self._on_status = on_status
        self._lock = threading.Lock()  # guards _servers and _statuses, read from any thread
        self._servers: dict[str, McpServer] = {}
        self._statuses: dict[str, ServerStatus] = {}
        # owned by the loop thread
        self._connections: dict[str, ServerConnection] = {}
        self._starting: dict[str, asyncio.Future[ServerConnection]] = {}
        self._start_tasks: dict[str, asyncio.Task[None]] = {}  # a stop cancels a start under way
        self._closed = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcp", daemon=True)
        self._thread.start()
        _managers.add(self)
        self.configure(servers)

    # ---- the facade (any thread but the loop's) --------------------------------------

    def configure(self, servers: Iterable[McpServer]) -> None:
        """Take a new list of servers; one removed or changed is stopped (and starts anew when used)."""
        new = {server.name: server for server in servers}
        with self._lock:
            old = self._servers
            self._servers = new
        for name, server in old.items():
            if new.get(name) != server:
                self._run(self._stop(name), CLOSE_TIMEOUT_S)
        with self._lock:
            self._statuses = {name: self._statuses.get(name, ServerStatus(name, ServerState.STOPPED)) for name in new}

    def names(self) -> list[str]:
        with self._lock:
            return list(self._servers)

    def status(self, name: str) -> ServerStatus:
        with self._lock:
            found = self._statuses.get(name)
        if found is None:
            raise McpError(self._unknown(name))
        return found

    def start(self, name: str) -> ServerStatus:
        """Start the server unless it runs; its status either way (FAILED says why)."""
        with contextlib.suppress(McpError):
            self._run(self._connected(name), None)
        return self.status(name)

    def stop(self, name: str) -> None:
        self.status(name)  # an unknown name raises
        self._run(self._stop(name), CLOSE_TIMEOUT_S)

    def stop_soon(self, name: str) -> None:
        """Ask for `stop` without waiting (for the GUI thread): a start under way is cancelled; the status follows."""
        if not self._loop.is_closed():
            asyncio.run_coroutine_threadsafe(self._stop(name), self._loop)

    def tools(self, name: str) -> tuple[ToolInfo, ...]:
        """The server's tools, starting it if needed; raises McpError when it cannot start."""
        self._run(self._connected(name), None)
        return self.status(name).tools

    def refresh_tools(self, name: str) -> tuple[ToolInfo, ...]:
        """List the tools again (a server may change them)."""
        return self._run(self._refresh(name), None)

    def call(
        self,
        name: str,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        stop: threading.Event | None = None,
        on_progress: Progress | None = None,
    ) -> ToolResult:
        """Run one tool; the result (capped) or McpError; CallStopped when `stop` is set meanwhile.

        `on_progress(progress, total, message)` is called on the loop's thread, as the server reports.
        """
        timeout = self.timeouts.call_s if timeout_s is None else timeout_s
        return self._run(self._call(name, tool, dict(arguments or {}), timeout, stop, on_progress), None)

    def close(self) -> None:
        """Stop every server (their processes end) and the loop thread; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._run(self._stop_all(), CLOSE_TIMEOUT_S + 5)
        except McpError as error:
            log.warning("Stopping the MCP servers did not finish: %s", error)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    # ---- on the loop --------------------------------------------------------------------

    def _run(self, coroutine: Coroutine[Any, Any, T], timeout_s: float | None) -> T:
        if threading.current_thread() is self._thread:
            coroutine.close()
            raise RuntimeError("the MCP facade is for other threads; on the loop, await its coroutines")
        if self._loop.is_closed() or not self._thread.is_alive():
            coroutine.close()
            raise McpError(N_("The MCP servers are closed."))
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(timeout_s)
        except concurrent.futures.TimeoutError as error:
            future.cancel()
            raise McpError(N_("The MCP servers did not answer in time.")) from error
        except concurrent.futures.CancelledError as error:  # `close` ended what was still under way
            raise McpError(N_("The MCP servers are closed.")) from error

    async def _connected(self, name: str) -> ServerConnection:
        connection = self._connections.get(name)
        if connection is not None and not connection.ended.is_set():
            return connection
        starting = self._starting.get(name)
        if starting is not None:
            return await asyncio.shield(starting)
        with self._lock:
            server = self._servers.get(name)
        if server is None:
            raise McpError(self._unknown(name))
        if server.problem:
            reason = fill(N_("{server}: {reason}"), server=name, reason=server.problem)
            self._set_status(ServerStatus(name, ServerState.FAILED, reason))
            raise McpError(reason)
        future: asyncio.Future[ServerConnection] = self._loop.create_future()
        self._starting[name] = future
        self._set_status(ServerStatus(name, ServerState.STARTING))
        try:
            connection = ServerConnection(server, self.timeouts.start_s)
            task = self._loop.create_task(connection.hold(), name=f"mcp {name}")
            self._start_tasks[name] = task
            try:
                _session, tools = await asyncio.shield(connection.ready)
            except McpError as error:
                await asyncio.wait({task})
                reason = fill(N_("{server}: {reason}"), server=name, reason=error)
                if task.cancelled():  # a stop cancelled it
                    self._set_status(ServerStatus(name, ServerState.STOPPED))
                else:
                    self._set_status(ServerStatus(name, ServerState.FAILED, reason))
                raise McpError(reason) from None
            self._connections[name] = connection
            task.add_done_callback(lambda _task: self._on_ended(name, connection))
            self._set_status(ServerStatus(name, ServerState.RUNNING, tools=tools))
            future.set_result(connection)
            return connection
        except BaseException as error:
            if not future.done():
                future.set_exception(error if isinstance(error, McpError) else McpError(describe_failure(error)))
                future.exception()  # retrieved: a start nobody else waits for is not "never retrieved"
            raise
        finally:
            self._starting.pop(name, None)
            self._start_tasks.pop(name, None)

    def _on_ended(self, name: str, connection: ServerConnection) -> None:
        """A connection's task ended: by `stop` (STOPPED, set there) or by itself (FAILED, with why)."""
        if self._connections.get(name) is not connection:
            return
        del self._connections[name]
        reason = connection.ended_reason or N_("the connection ended")
        self._set_status(
            ServerStatus(name, ServerState.FAILED, fill(N_("{server} stopped: {reason}"), server=name, reason=reason))
        )

    async def _stop(self, name: str) -> None:
        start = self._start_tasks.get(name)
        if start is not None:
            start.cancel()  # its process is ended by the transport's own shutdown
        starting = self._starting.get(name)
        if starting is not None:
            with contextlib.suppress(McpError):
                await asyncio.shield(starting)
        connection = self._connections.pop(name, None)
        if connection is not None:
            connection.close()
            await connection.ended.wait()
        with self._lock:
            known = name in self._statuses
        if known:
            self._set_status(ServerStatus(name, ServerState.STOPPED))

    async def _stop_all(self) -> None:
        """Stop every server, then end whatever else still runs here (a call another thread waits for)."""
        await asyncio.gather(*(self._stop(name) for name in list(self._connections) + list(self._starting)))
        others = asyncio.all_tasks() - {asyncio.current_task()}
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    async def _refresh(self, name: str) -> tuple[ToolInfo, ...]:
        connection = await self._connected(name)
        session, _tools = connection.ready.result()
        try:
            tools = await asyncio.wait_for(list_tools(session, name), self.timeouts.list_s)
        except TimeoutError:
            raise McpError(
                fill(
                    N_("{server} did not list its tools within {seconds} s."),
                    server=name,
                    seconds=f"{self.timeouts.list_s:g}",
                )
            ) from None
        self._set_status(ServerStatus(name, ServerState.RUNNING, tools=tools))
        return tools

    async def _call(
        self,
        name: str,
        tool: str,
        arguments: dict[str, Any],
        timeout_s: float,
        stop: threading.Event | None,
        on_progress: Progress | None,
    ) -> ToolResult:
        connection = await self._connected(name)
        session, _tools = connection.ready.result()
        found = next((info for info in self.status(name).tools if info.name == tool), None)
        if found is None:
            raise McpError(fill(N_("{server} has no tool named “{tool}”."), server=name, tool=tool))
        if not found.usable:
            raise McpError(
                fill(
                    N_("The tool {tool} of {server} cannot be called: {problem}"),
                    tool=tool,
                    server=name,
                    problem=found.problem,
                )
            )
        task = self._loop.create_task(self._send_call(session, tool, arguments, on_progress))
        deadline = self._loop.time() + timeout_s
        while not task.done():
            await asyncio.wait({task}, timeout=min(STOP_POLL_S, max(0.0, deadline - self._loop.time())))
            if task.done():
                break
            if stop is not None and stop.is_set():
                await _cancel(task)
                raise CallStopped(fill(N_("The call of {tool} on {server} was stopped."), tool=tool, server=name))
            if self._loop.time() >= deadline:
                await _cancel(task)
                raise McpError(
                    fill(
                        N_("{server} did not finish {tool} within {seconds} s; the call was cancelled."),
                        server=name,
                        tool=tool,
                        seconds=f"{timeout_s:g}",
                    )
                )
        try:
            result = task.result()
        except MCPError as error:
            if error.code == mcp_types.CONNECTION_CLOSED and connection.closing:
                raise McpError(
                    fill(N_("{server} was stopped during the call of {tool}."), server=name, tool=tool)
                ) from error
            if error.code == mcp_types.CONNECTION_CLOSED:
                reason = await self._stop_failed(name, connection)
                raise McpError(
                    fill(
                        N_("{server} ended during the call of {tool}: {reason}"), server=name, tool=tool, reason=reason
                    )
                ) from error
            raise McpError(
                fill(N_("{server} refused the call of {tool}: {error}"), server=name, tool=tool, error=error.message)
            ) from error
        except Exception as error:
            raise McpError(
                fill(
                    N_("The call of {tool} on {server} failed: {error}"),
                    tool=tool,
                    server=name,
                    error=describe_failure(error),
                )
            ) from error
        return result_from_mcp(result, self.cap_bytes)

    async def _send_call(
        self, session: ClientSession, tool: str, arguments: dict[str, Any], on_progress: Progress | None
    ) -> mcp_types.CallToolResult:
        async def progress(progress: float, total: float | None, message: str | None) -> None:
            if on_progress is None:
                return
            try:
                on_progress(progress, total, message)
            except Exception:  # a listener's bug must not end the call
                log.exception("A listener of a tool call's progress failed")

        return await session.call_tool(tool, arguments, progress_callback=progress if on_progress else None)

    async def _stop_failed(self, name: str, connection: ServerConnection) -> str:
        """A call found the server gone: close what is left, mark it FAILED and return why, in a few words."""
        connection.close()
        await connection.ended.wait()
        if self._connections.get(name) is connection:
            del self._connections[name]
        reason = connection.ended_reason or N_("its connection closed")
        if connection.last_words and not connection.ended_reason:
            reason = fill(N_("{reason} (its last words: {stderr})"), reason=reason, stderr=connection.last_words)
        self._set_status(
            ServerStatus(name, ServerState.FAILED, fill(N_("{server} stopped: {reason}"), server=name, reason=reason))
        )
        return reason

    def _set_status(self, status: ServerStatus) -> None:
        with self._lock:
            if status.name not in self._servers:
                return
            if self._statuses.get(status.name) == status:
                return
            self._statuses[status.name] = status
        if self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:  # a listener's bug must not stop the servers' bookkeeping
                log.exception("A listener of the MCP servers' status failed")

    @staticmethod
    def _unknown(name: str) -> str:
        return fill(N_("No MCP server named “{server}” is configured."), server=name)


async def _cancel(task: asyncio.Task[Any]) -> None:
    """Cancel a call and wait for it to unwind (the SDK tells the server it was cancelled)."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, TimeoutError, Exception):  # its outcome no longer matters
        await asyncio.wait_for(task, 5.0)


@atexit.register
def _close_all() -> None:
    """A manager nobody closed still ends its servers' processes when Python exits."""
    for manager in list(_managers):
        manager.close()
