"""The one error type of the MCP client: a line a person reads (a `fill`ed template), never a traceback."""

from __future__ import annotations


class McpError(Exception):
    """A server could not be configured, started, listed or called; the message says which and why."""


class McpConfigError(McpError):
    """mcp.json (or a file to import) cannot be read or written; nothing was changed."""


class CallStopped(McpError):
    """The caller's stop flag ended a tool call: an abort asked for, not a failure."""
