"""`glassbox mcp list|call`: the MCP servers of mcp.json, started, their tools listed, one tool run.

Exit status: 0 when everything asked for worked; 1 with one line on stderr for a wrong server or
tool name, arguments that are not a JSON object, a server that cannot start or a call that fails;
1 too when the tool itself reports an error (its result is printed all the same); 130 on Ctrl-C.
Whatever a server says is made inert before it reaches the terminal.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from app.cli.common import CommandError, fail, quiet_logging, stopped
from app.cli.terminal_text import terminal_safe

if TYPE_CHECKING:
    from app.core.tools.connection import ToolInfo

CALL_TIMEOUT_S = 120.0


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    commands = parser.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)

    listing = commands.add_parser("list", help="start each configured server and list its tools")
    listing.add_argument("--schemas", action="store_true", help="print each tool's JSON schema of arguments")
    listing.set_defaults(handler=_list)

    call = commands.add_parser("call", help="run one tool and print its result")
    call.add_argument("server", help="the server's name in mcp.json")
    call.add_argument("tool", help="the tool's name (see `glassbox mcp list`)")
    call.add_argument("arguments", nargs="?", default="{}", help="the arguments as a JSON object (default: {})")
    call.add_argument("--timeout", type=float, default=CALL_TIMEOUT_S, help="seconds the call may take")
    call.set_defaults(handler=_call)


def _list(args: argparse.Namespace) -> int:
    from app.core.tools.config import McpConfig  # the SDK takes a second to import: only for this command
    from app.core.tools.errors import McpError
    from app.core.tools.manager import McpManager, ServerState

    quiet_logging(False)
    try:
        servers = McpConfig().load()
    except McpError as error:
        return fail(str(error))
    if not servers:
        print(f"no MCP servers configured; add them in the window (Tools → MCP servers…) or in {McpConfig().path}")
        return 0
    manager = McpManager(servers)
    failed = 0
    try:
        for server in servers:
            status = manager.start(server.name)
            print(terminal_safe(f"{server.name} ({server.describe()}): {status.state.value}"))
            if status.state is not ServerState.RUNNING:
                failed += 1
                print(terminal_safe(f"  {status.reason}"))
                continue
            for tool in status.tools:
                print(terminal_safe(_tool_line(tool)))
                if args.schemas:
                    print(terminal_safe("    " + json.dumps(tool.input_schema, ensure_ascii=False)))
    except KeyboardInterrupt:
        return stopped()
    finally:
        manager.close()
    if failed:
        return fail(f"{failed} of {len(servers)} servers did not start")
    return 0


def _tool_line(tool: ToolInfo) -> str:
    summary = tool.description.strip().splitlines()[0] if tool.description.strip() else ""
    line = f"  {tool.name}" + (f": {summary}" if summary else "")
    if not tool.usable:
        line += f" [cannot be called: {tool.problem}]"
    return line


def _call(args: argparse.Namespace) -> int:
    from app.core.tools.config import McpConfig
    from app.core.tools.errors import McpError
    from app.core.tools.manager import McpManager, Timeouts

    quiet_logging(False)
    try:
        arguments = _arguments(args.arguments)
        servers = McpConfig().load()
    except (CommandError, McpError) as error:
        return fail(str(error))
    manager = McpManager(servers, timeouts=Timeouts(call_s=args.timeout))
    try:
        result = manager.call(args.server, args.tool, arguments)
    except McpError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        return stopped()
    finally:
        manager.close()
    print(terminal_safe(result.text()))
    if result.is_error:
        return fail(f"the tool {args.tool} reported an error (above)")
    return 0


def _arguments(text: str) -> dict[str, Any]:
    try:
        arguments = json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"the arguments are not JSON ({error.msg} at column {error.colno}): {text}") from error
    if not isinstance(arguments, dict):
        raise CommandError(f'the arguments must be a JSON object, like \'{{"name": "value"}}\', not {text}')
    return arguments
