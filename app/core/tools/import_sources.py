"""Import from…: the MCP servers another app has configured, read from its own file (never changed).

Claude Desktop, LM Studio and Cursor all keep an `mcpServers` document; where each keeps it
on Linux, macOS and Windows is listed here. A missing or malformed file is said in one line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.tools.config import McpServer, parse_servers, read_document


@dataclass(frozen=True)
class ImportSource:
    app: str  # the other app's name, as it calls itself
    path: Path


@dataclass(frozen=True)
class Imported:
    servers: tuple[McpServer, ...]  # new ones, to add
    notes: tuple[str, ...]  # one line per entry skipped (malformed, or a name already in use)


def import_sources(home: Path | None = None, platform: str = sys.platform) -> list[ImportSource]:
    """Where Claude Desktop, LM Studio and Cursor keep their servers on this operating system."""
    home = home or Path.home()
    if platform == "darwin":
        claude = home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    elif platform == "win32":
        claude = Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / "Claude" / "claude_desktop_config.json"
    else:
        claude = Path(os.environ.get("XDG_CONFIG_HOME", home / ".config")) / "Claude" / "claude_desktop_config.json"
    return [
        ImportSource("Claude Desktop", claude),
        ImportSource("LM Studio", home / ".lmstudio" / "mcp.json"),
        ImportSource("Cursor", home / ".cursor" / "mcp.json"),
    ]


def import_servers(path: Path, existing: Iterable[McpServer]) -> Imported:
    """The servers of another app's file that are not configured here yet; raises McpConfigError for the file."""
    servers, problems = parse_servers(read_document(path), str(path))
    taken = {server.name for server in existing}
    new: list[McpServer] = []
    notes = list(problems)
    for server in servers:
        if server.name in taken:
            notes.append(fill(N_("“{name}” is configured already; it was left as it is."), name=server.name))
            continue
        taken.add(server.name)
        new.append(server)
    return Imported(tuple(new), tuple(notes))
