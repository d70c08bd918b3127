"""mcp.json: the MCP servers, in the `mcpServers` format of LM Studio, Claude Desktop and Cursor.

A stdio server is a command with args and env; a streamable-HTTP server is a URL with headers:

    {"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}},
                    "docs": {"url": "https://example.org/mcp", "headers": {"Authorization": "Bearer …"}}}}

Every `env` and `headers` value is a secret Glassbox cannot tell from a harmless one, so each
goes to the system keyring when the file is saved and the file keeps a reference in its place
(`REFERENCE_PREFIX` and the keyring entry's name). A value typed into the file by hand is used as
it is until the next save moves it. Keys this module does not know are kept as they were.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.core.paths import app_paths
from app.core.support.atomic import atomic_write
from app.core.support.formatting import fill
from app.core.support.secrets import NoKeyring, SecretNotKept, SecretStore, SecretStoreError
from app.core.support.user_text import N_
from app.core.tools.errors import McpConfigError

log = logging.getLogger(__name__)

FILE_NAME = "mcp.json"
REFERENCE_PREFIX = "glassbox-keyring:"
_KNOWN_KEYS = frozenset({"command", "args", "env", "url", "headers", "type"})
_HTTP_TYPES = frozenset({"http", "streamable-http", "streamableHttp", "streamable_http"})


@dataclass(frozen=True)
class McpServer:
    """One configured server; `env` and `headers` hold the real values (read from the keyring)."""

    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    extra: tuple[tuple[str, str], ...] = field(default=(), compare=False)  # unknown keys, as JSON text
    problem: str = field(default="", compare=False)  # why it cannot start (a secret the keyring lost)

    @property
    def is_http(self) -> bool:
        return bool(self.url)

    def describe(self) -> str:
        """The command line or the URL, as a person reads it (no secrets: env and headers are left out)."""
        if self.is_http:
            return self.url
        return " ".join([self.command, *self.args])


def config_file() -> Path:
    return app_paths().config / FILE_NAME


def parse_servers(data: object, source: str) -> tuple[list[McpServer], list[str]]:
    """The servers in a parsed `mcpServers` document, and one line per entry that is not a server.

    `source` names the file in the lines. A document without an `mcpServers` object raises.
    """
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers"), dict):
        raise McpConfigError(fill(N_("{file} has no “mcpServers” object."), file=source))
    servers: list[McpServer] = []
    problems: list[str] = []
    for name, entry in data["mcpServers"].items():
        try:
            servers.append(server_from_entry(str(name), entry))
        except McpConfigError as error:
            problems.append(fill(N_("{file}: {problem}"), file=source, problem=error))
    return servers, problems


def server_from_entry(name: str, entry: object) -> McpServer:
    """One `mcpServers` entry; raises McpConfigError naming the server and what is wrong."""
    if not name.strip():
        raise McpConfigError(N_("A server has an empty name."))
    if not isinstance(entry, dict):
        raise McpConfigError(fill(N_("The server “{name}” is not an object."), name=name))
    kind = entry.get("type")
    if kind == "sse":
        raise McpConfigError(
            fill(N_("The server “{name}” uses the old SSE transport; Glassbox speaks streamable HTTP."), name=name)
        )
    extra = tuple((key, json.dumps(value)) for key, value in entry.items() if key not in _KNOWN_KEYS)
    url = entry.get("url")
    command = entry.get("command")
    if url is not None or kind in _HTTP_TYPES:
        if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
            raise McpConfigError(fill(N_("The server “{name}” needs an http(s) “url”."), name=name))
        return McpServer(name=name, url=url, headers=_string_pairs(name, "headers", entry.get("headers")), extra=extra)
    if not isinstance(command, str) or not command.strip():
        raise McpConfigError(fill(N_("The server “{name}” has neither a “command” nor a “url”."), name=name))
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        raise McpConfigError(fill(N_("The “args” of the server “{name}” are not a list of strings."), name=name))
    return McpServer(
        name=name, command=command, args=tuple(args), env=_string_pairs(name, "env", entry.get("env")), extra=extra
    )


def _string_pairs(name: str, key: str, value: object) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise McpConfigError(
            fill(N_("The “{key}” of the server “{name}” is not an object of strings."), key=key, name=name)
        )
    return tuple((str(k), v) for k, v in value.items())


def read_document(path: Path) -> object:
    """The parsed JSON of a file; a missing, unreadable or malformed file raises one clear line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise McpConfigError(fill(N_("{file} does not exist."), file=str(path))) from error
    except (OSError, UnicodeDecodeError) as error:
        raise McpConfigError(fill(N_("Cannot read {file}: {error}"), file=str(path), error=error)) from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise McpConfigError(
            fill(
                N_("{file} is not valid JSON (line {line}: {error})."),
                file=str(path),
                line=error.lineno,
                error=error.msg,
            )
        ) from error


class McpConfig:
    """Reads and writes mcp.json, with its secrets in the keyring (the one owner of that file)."""

    def __init__(self, path: Path | None = None, secrets: SecretStore | None = None) -> None:
        self.path = path or config_file()
        self._secrets = secrets or SecretStore()

    def load(self) -> list[McpServer]:
        """The configured servers with their secrets; no file is no servers; any wrong entry raises."""
        if not self.path.exists():
            return []
        servers, problems = parse_servers(read_document(self.path), str(self.path))
        if problems:
            raise McpConfigError(problems[0])
        return [self._with_secrets(server) for server in servers]

    def save(self, servers: Iterable[McpServer]) -> None:
        """Write every server, its env and header values into the keyring first; nothing is written on failure."""
        servers = list(servers)
        names = [server.name for server in servers]
        if len(set(names)) != len(names):
            raise McpConfigError(N_("Two servers have the same name."))
        document: dict[str, Any] = {}
        for server in servers:
            document[server.name] = self._entry(server)
        old = self._stored_references()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps({"mcpServers": document}, indent=2, ensure_ascii=False) + "\n")
        kept = {ref for entry in document.values() for ref in _references(entry)}
        for reference in old - kept:
            self._delete_secret(reference)

    def _entry(self, server: McpServer) -> dict[str, Any]:
        entry: dict[str, Any] = {key: json.loads(value) for key, value in server.extra}
        if server.is_http:
            entry["url"] = server.url
            if server.headers:
                entry["headers"] = self._references_for(server.name, "headers", server.headers)
        else:
            entry["command"] = server.command
            entry["args"] = list(server.args)
            if server.env:
                entry["env"] = self._references_for(server.name, "env", server.env)
        return entry

    def _references_for(self, name: str, key: str, pairs: tuple[tuple[str, str], ...]) -> dict[str, str]:
        references: dict[str, str] = {}
        for variable, value in pairs:
            if value.startswith(REFERENCE_PREFIX):  # a secret the keyring lost: the reference stays, and is said
                references[variable] = value
                continue
            secret_name = f"mcp/{name}/{key}/{variable}"
            try:
                self._secrets.set(secret_name, value)
            except NoKeyring as error:
                raise McpConfigError(
                    fill(
                        N_(
                            "No system keyring is available to keep the {key} of “{name}” (Glassbox never writes "
                            "them to a file). Start a keyring service and save again."
                        ),
                        key=key,
                        name=name,
                    )
                ) from error
            except SecretNotKept as error:
                raise McpConfigError(
                    fill(
                        N_("The system keyring ({backend}) did not keep the {key} of “{name}”; nothing was saved."),
                        backend=error.backend,
                        key=key,
                        name=name,
                    )
                ) from error
            except SecretStoreError as error:
                raise McpConfigError(
                    fill(
                        N_("The system keyring refused the {key} of “{name}” ({error})."),
                        key=key,
                        name=name,
                        error=error,
                    )
                ) from error
            references[variable] = REFERENCE_PREFIX + secret_name
        return references

    def _with_secrets(self, server: McpServer) -> McpServer:
        """The server with its secrets from the keyring; one the keyring lost stays a reference, and is said."""
        env, env_missing = self._resolved(server.env)
        headers, headers_missing = self._resolved(server.headers)
        missing = env_missing + headers_missing
        problem = ""
        if missing:
            problem = fill(
                N_("the system keyring has no value for {names} any more; enter it again and save"),
                names=", ".join(missing),
            )
        return replace(server, env=env, headers=headers, problem=problem)

    def _resolved(self, pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[tuple[str, str], ...], list[str]]:
        resolved = []
        missing = []
        for key, value in pairs:
            if value.startswith(REFERENCE_PREFIX):
                secret = self._secrets.get(value.removeprefix(REFERENCE_PREFIX))
                if secret is None:
                    missing.append(key)
                else:
                    value = secret
            resolved.append((key, value))
        return tuple(resolved), missing

    def _stored_references(self) -> set[str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return set()
        entries = data.get("mcpServers") if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            return set()
        return {ref for entry in entries.values() if isinstance(entry, dict) for ref in _references(entry)}

    def _delete_secret(self, reference: str) -> None:
        try:
            self._secrets.delete(reference.removeprefix(REFERENCE_PREFIX))
        except SecretStoreError as error:  # the file no longer names it: a leftover, not a loss
            log.info("Could not remove an MCP secret from the keyring: %s", error)


def _references(entry: Mapping[str, Any]) -> set[str]:
    found: set[str] = set()
    for key in ("env", "headers"):
        values = entry.get(key)
        if isinstance(values, dict):
            found.update(v for v in values.values() if isinstance(v, str) and v.startswith(REFERENCE_PREFIX))
    return found
