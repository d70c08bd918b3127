"""One MCP server's connection, held open by one asyncio task on the manager's event loop.

The SDK's transports and session are async context managers whose cancel scopes must be entered
and left by the same task, so one task (`ServerConnection.hold`) opens them, says when the server
is ready (or why it is not), keeps them open until `close()` and then closes them. Whatever ends
the connection (a server that exits, garbage on its output, a start that takes too long) becomes
one line in `ended_reason`. A stdio server's stderr goes to a temporary file, whose last line is
named when the server fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import IO, Any

import anyio
import anyio.abc
import httpx2
import jsonschema  # type: ignore[import-untyped]
import mcp_types
import pydantic
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp import ClientSession
from mcp.client.session import IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from app import __version__
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.tools.config import McpServer
from app.core.tools.errors import McpError

log = logging.getLogger(__name__)

STDERR_TAIL_BYTES = 2000
_CLIENT_INFO = mcp_types.Implementation(name="glassbox", version=__version__)


class _GarbageLineFilter(logging.Filter):
    """The SDK logs each line of a server's stdout that is not MCP with a traceback; the connection
    counts them and says so in the server's one-line reason instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to parse JSONRPC message")


logging.getLogger("mcp.client.stdio").addFilter(_GarbageLineFilter())


@dataclass(frozen=True)
class ToolInfo:
    """One tool of a server: what a model is told about it, and why it cannot be called, if it cannot."""

    server: str
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    problem: str = ""  # empty when the tool can be called

    @property
    def usable(self) -> bool:
        return not self.problem


def tool_info(server: str, tool: mcp_types.Tool) -> ToolInfo:
    """The tool, with a problem said when its input schema is not a JSON schema of an object."""
    schema = tool.input_schema
    problem = ""
    if schema.get("type") != "object":
        problem = N_("its input schema does not describe an object of arguments")
    else:
        try:
            jsonschema.validators.validator_for(schema).check_schema(schema)
        except jsonschema.SchemaError as error:
            problem = fill(N_("its input schema is not a valid JSON schema: {error}"), error=error.message)
    return ToolInfo(server, tool.name, tool.title or "", tool.description or "", dict(schema), problem)


def describe_failure(error: BaseException) -> str:
    """The innermost cause of a failure, in one line (task groups wrap what they raise)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    if isinstance(error, FileNotFoundError):
        return fill(N_("the command {command} was not found"), command=error.filename or str(error))
    if isinstance(error, MCPError):
        return error.message
    if isinstance(error, httpx2.HTTPError):
        return fill(N_("{kind}: {error}"), kind=type(error).__name__, error=str(error) or type(error).__name__)
    text = str(error).splitlines()[0] if str(error) else ""
    return text or type(error).__name__


class ServerConnection:
    """Opens a server, keeps it open for calls, closes it; everything here runs on the manager's loop."""

    def __init__(self, server: McpServer, start_timeout_s: float) -> None:
        self.server = server
        self._start_timeout_s = start_timeout_s
        self._closing = asyncio.Event()  # Glassbox asked it to close
        self._wake = asyncio.Event()  # asked to close, or the server's side of the connection ended
        self.ready: asyncio.Future[tuple[ClientSession, tuple[ToolInfo, ...]]] = (
            asyncio.get_running_loop().create_future()
        )
        self.ended = asyncio.Event()
        self.ended_reason = ""  # why the connection ended, when it ended by itself
        self.last_words = ""  # a stdio server's last line on stderr, once it has ended
        self._garbage_lines = 0
        self._stderr: IO[str] | None = None

    async def hold(self) -> None:
        """The task's whole life: open, initialize, list the tools, wait for `close()`, close."""
        try:
            async with contextlib.AsyncExitStack() as stack:
                server_read, write = await stack.enter_async_context(self._transport())
                watchers = await stack.enter_async_context(anyio.create_task_group())
                stack.callback(watchers.cancel_scope.cancel)  # runs before the group is left
                read = await watchers.start(self._watch, server_read)
                session = await stack.enter_async_context(
                    ClientSession(read, write, message_handler=self._on_message, client_info=_CLIENT_INFO)
                )
                try:
                    with anyio.fail_after(self._start_timeout_s):
                        await session.initialize()
                        tools = await list_tools(session, self.server.name)
                except TimeoutError:
                    raise McpError(self._no_answer()) from None
                self.ready.set_result((session, tools))
                await self._wake.wait()
                if not self._closing.is_set():
                    raise _ServerEnded(N_("the server ended"))
        except asyncio.CancelledError:
            self._settle(N_("it was stopped"))
            raise
        except Exception as error:
            self._settle(self._reason(error))
        finally:
            self.last_words = self._stderr_tail()  # the process has ended: its stderr is complete
            if self._stderr is not None:
                self._stderr.close()
            self.ended.set()

    def close(self) -> None:
        self._closing.set()
        self._wake.set()

    async def _watch(
        self,
        server_read: MemoryObjectReceiveStream[Any],
        *,
        task_status: anyio.abc.TaskStatus[MemoryObjectReceiveStream[Any]] = anyio.TASK_STATUS_IGNORED,
    ) -> None:
        """Pass the server's messages on to the session, and wake `hold` when they end (a server that exits)."""
        sink, read = anyio.create_memory_object_stream[Any](0)
        task_status.started(read)
        try:
            async with sink, server_read:
                async for item in server_read:
                    await sink.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass  # the session is closing
        finally:
            self._wake.set()

    @property
    def closing(self) -> bool:
        """Whether Glassbox asked it to close (a stop, or the end of the app), rather than the server ending."""
        return self._closing.is_set()

    @property
    def garbage_lines(self) -> int:
        return self._garbage_lines

    def _transport(self) -> contextlib.AbstractAsyncContextManager[Any]:
        if self.server.is_http:
            return _http_transport(self.server)
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")  # noqa: SIM115
        parameters = StdioServerParameters(
            command=self.server.command, args=list(self.server.args), env=dict(self.server.env) or None
        )
        return stdio_client(parameters, errlog=self._stderr)

    async def _on_message(self, message: IncomingMessage) -> None:
        if isinstance(message, Exception):
            self._garbage_lines += 1  # a line on the server's stdout that is not an MCP message

    def _settle(self, reason: str) -> None:
        if not self.ready.done():
            self.ready.set_exception(McpError(reason))
        elif not self._closing.is_set():
            self.ended_reason = reason

    def _reason(self, error: BaseException) -> str:
        reason = describe_failure(error)
        if isinstance(error, McpError) and not isinstance(error, _ServerEnded):
            return reason
        tail = self._stderr_tail()
        if tail:
            return fill(N_("{reason} (its last words: {stderr})"), reason=reason, stderr=tail)
        return reason

    def _no_answer(self) -> str:
        if self._garbage_lines:
            return fill(
                N_("it did not answer within {seconds} s; it wrote lines that are not MCP messages ({count})"),
                seconds=f"{self._start_timeout_s:g}",
                count=self._garbage_lines,
            )
        return fill(N_("it did not answer within {seconds} s"), seconds=f"{self._start_timeout_s:g}")

    def _stderr_tail(self) -> str:
        """The last line the server wrote to stderr (read only once it has ended: the file offset is shared)."""
        if self._stderr is None or self._stderr.closed:
            return ""
        try:
            self._stderr.seek(0)
            text = self._stderr.read()[-STDERR_TAIL_BYTES:]
        except (OSError, ValueError):
            return ""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return lines[-1][:300] if lines else ""


class _ServerEnded(McpError):
    """The server's side of a running connection ended (its process exited, its stream closed)."""


async def list_tools(session: ClientSession, server: str) -> tuple[ToolInfo, ...]:
    """Every page of the server's tools; a listing that is not MCP raises McpError."""
    tools: list[ToolInfo] = []
    cursor: str | None = None
    while True:
        try:
            page = await session.list_tools(params=mcp_types.PaginatedRequestParams(cursor=cursor) if cursor else None)
        except MCPError as error:
            raise McpError(fill(N_("its list of tools was refused: {error}"), error=error.message)) from error
        except pydantic.ValidationError as error:  # a listing of the wrong shape
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise McpError(
                fill(N_("its list of tools is malformed ({where}: {error})"), where=where, error=first["msg"])
            ) from error
        tools.extend(tool_info(server, tool) for tool in page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tuple(tools)


@contextlib.asynccontextmanager
async def _http_transport(server: McpServer) -> AsyncIterator[Any]:
    client = httpx2.AsyncClient(headers=dict(server.headers), timeout=httpx2.Timeout(30.0, read=300.0))
    async with client, streamable_http_client(server.url, http_client=client) as streams:
        yield streams
