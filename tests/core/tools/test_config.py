"""mcp.json: the `mcpServers` format other apps use, secrets in the keyring, nothing lost on bad input."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.core.tools.config import REFERENCE_PREFIX, McpConfig, McpServer, config_file
from app.core.tools.errors import McpConfigError
from app.core.tools.import_sources import import_servers, import_sources
from app.core.tools.manager import McpManager, ServerState
from tests.fakes.memory_keyring import MemoryKeyring

CLAUDE_STYLE = {
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"],
            "env": {"GITHUB_TOKEN": "ghp_secret"},
        },
        "remote": {"type": "http", "url": "https://mcp.example.org/mcp", "headers": {"Authorization": "Bearer abc"}},
        "legacy": {"type": "sse", "url": "https://old.example.org/sse"},
        "empty": {"args": []},
    },
    "globalShortcut": "Ctrl+Space",
}


def test_servers_round_trip_with_their_secrets_only_in_the_keyring(memory_keyring: MemoryKeyring) -> None:
    config = McpConfig()
    servers = [
        McpServer("time", command="uvx", args=("mcp-server-time",), env=(("API_KEY", "s3cret"),)),
        McpServer("docs", url="https://docs.example.org/mcp", headers=(("Authorization", "Bearer t0ken"),)),
    ]

    config.save(servers)
    written = config.path.read_text()

    assert config.path == config_file()
    assert "s3cret" not in written and "t0ken" not in written
    entries = json.loads(written)["mcpServers"]
    assert entries["time"]["env"]["API_KEY"].startswith(REFERENCE_PREFIX)
    assert McpConfig().load() == servers


def test_a_removed_server_takes_its_secrets_out_of_the_keyring(memory_keyring: MemoryKeyring) -> None:
    config = McpConfig()
    config.save([McpServer("time", command="uvx", env=(("API_KEY", "s3cret"),))])

    config.save([])

    assert "s3cret" not in memory_keyring.passwords.values()


def test_keys_glassbox_does_not_know_are_kept(memory_keyring: MemoryKeyring) -> None:
    config = McpConfig()
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text(json.dumps({"mcpServers": {"t": {"command": "x", "disabled": False, "autoApprove": ["a"]}}}))

    config.save(config.load())

    entry = json.loads(config.path.read_text())["mcpServers"]["t"]
    assert entry["disabled"] is False
    assert entry["autoApprove"] == ["a"]


def test_a_value_typed_into_the_file_is_used_and_moved_to_the_keyring_at_the_next_save(
    memory_keyring: MemoryKeyring,
) -> None:
    config = McpConfig()
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text(json.dumps({"mcpServers": {"t": {"command": "x", "env": {"TOKEN": "typed"}}}}))

    loaded = config.load()
    config.save(loaded)

    assert loaded[0].env == (("TOKEN", "typed"),)
    assert "typed" not in config.path.read_text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", r"is not valid JSON \(line 1"),
        ('{"servers": {}}', "has no “mcpServers” object"),
        ('{"mcpServers": {"t": {"command": "x", "args": "oops"}}}', "“args” of the server “t” are not a list"),
    ],
)
def test_a_malformed_file_is_said_and_left_as_it_is(content: str, message: str) -> None:
    config = McpConfig()
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text(content)

    with pytest.raises(McpConfigError, match=message):
        config.load()
    assert config.path.read_text() == content


def test_no_file_is_no_servers() -> None:
    assert McpConfig().load() == []


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "Cannot save mcp/t/env/TOKEN: no keyring")
def test_secrets_without_a_keyring_are_refused_and_nothing_is_written(no_keyring: object) -> None:
    config = McpConfig()

    with pytest.raises(McpConfigError, match="No system keyring is available to keep the env of “t”"):
        config.save([McpServer("t", command="x", env=(("TOKEN", "v"),))])
    assert not config.path.exists()


def test_import_from_a_claude_desktop_file_takes_the_servers_and_names_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps(CLAUDE_STYLE))

    imported = import_servers(path, existing=[McpServer("remote", command="mine")])

    assert [server.name for server in imported.servers] == ["filesystem"]
    filesystem = imported.servers[0]
    assert filesystem.args[-1] == "/home/me/notes"
    assert filesystem.env == (("GITHUB_TOKEN", "ghp_secret"),)
    notes = "\n".join(imported.notes)
    assert "“legacy” uses the old SSE transport" in notes
    assert "“empty” has neither a “command” nor a “url”" in notes
    assert "“remote” is configured already" in notes


def test_import_reads_http_servers_with_their_headers(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(CLAUDE_STYLE))

    imported = import_servers(path, existing=[])

    remote = next(server for server in imported.servers if server.name == "remote")
    assert remote.is_http
    assert remote.headers == (("Authorization", "Bearer abc"),)


def test_importing_a_missing_file_is_said(tmp_path: Path) -> None:
    with pytest.raises(McpConfigError, match="does not exist"):
        import_servers(tmp_path / "nowhere.json", existing=[])


@pytest.mark.parametrize(
    ("platform", "claude_path"),
    [
        ("linux", ".config/Claude/claude_desktop_config.json"),
        ("darwin", "Library/Application Support/Claude/claude_desktop_config.json"),
    ],
)
def test_import_knows_where_each_app_keeps_its_servers(
    platform: str, claude_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)

    sources = {source.app: source.path for source in import_sources(home=tmp_path, platform=platform)}

    assert sources["Claude Desktop"] == tmp_path / claude_path
    assert sources["LM Studio"] == tmp_path / ".lmstudio" / "mcp.json"
    assert sources["Cursor"] == tmp_path / ".cursor" / "mcp.json"


def test_import_on_windows_reads_claude_from_appdata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))

    sources = {source.app: source.path for source in import_sources(home=tmp_path, platform="win32")}

    assert sources["Claude Desktop"] == tmp_path / "Roaming" / "Claude" / "claude_desktop_config.json"


def test_a_secret_the_keyring_lost_fails_only_its_server_and_its_reference_is_kept(
    memory_keyring: MemoryKeyring,
) -> None:
    config = McpConfig()
    config.save([McpServer("a", command="x", env=(("TOKEN", "t"),)), McpServer("b", command="y")])
    memory_keyring.passwords.clear()

    lost, fine = config.load()
    config.save([lost, fine])
    manager = McpManager([lost, fine])
    try:
        status = manager.start("a")
    finally:
        manager.close()

    assert fine.problem == ""
    assert lost.problem == "the system keyring has no value for TOKEN any more; enter it again and save"
    assert status.state is ServerState.FAILED and status.reason == f"a: {lost.problem}"
    assert json.loads(config.path.read_text())["mcpServers"]["a"]["env"]["TOKEN"].startswith(REFERENCE_PREFIX)
