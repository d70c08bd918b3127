"""`glassbox mcp list|call` as a user runs them, against real servers configured in mcp.json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.main import main
from tests.core.tools.conftest import HERE, VENV_BIN


def _glassbox(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """The command in its own process, as a user runs it."""
    env = {**os.environ, "GLASSBOX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=120, env=env)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command in this process (much quicker to start): its exit status, stdout and stderr."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def configured(isolated_home: Path) -> Path:
    """mcp.json with the time server, one whose command does not exist, and one with a tool that cannot be called."""
    (isolated_home / "config").mkdir(parents=True, exist_ok=True)
    servers = {
        "time": {"command": str(VENV_BIN / "mcp-server-time"), "args": ["--local-timezone", "UTC"]},
        "ghost": {"command": "glassbox-no-such-mcp-server"},
        "odd": {"command": sys.executable, "args": [str(HERE / "misbehaving_server.py")]},
    }
    (isolated_home / "config" / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    return isolated_home


def test_list_starts_each_server_and_lists_its_tools_and_failures(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(capsys, "mcp", "list", "--schemas")

    assert status == 1
    assert "time (" in out and ": running" in out
    assert "  convert_time: " in out
    lines = out.splitlines()
    schema_line = lines[next(row for row, line in enumerate(lines) if line.startswith("  convert_time: ")) + 1]
    assert json.loads(schema_line)["required"] == ["source_timezone", "time", "target_timezone"]
    assert "ghost (glassbox-no-such-mcp-server): failed" in out
    assert "glassbox-no-such-mcp-server was not found" in out
    assert "broken: its schema is wrong [cannot be called: its input schema is not a valid JSON schema" in out
    assert "glassbox: error: 1 of 3 servers did not start" in err


def test_list_with_nothing_configured_says_where_to_configure(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = _run(capsys, "mcp", "list")

    assert status == 0
    assert "no MCP servers configured" in out


def test_call_runs_a_tool_and_prints_its_result(configured: Path) -> None:
    arguments = json.dumps({"source_timezone": "UTC", "time": "08:30", "target_timezone": "Europe/Berlin"})

    result = _glassbox("mcp", "call", "time", "convert_time", arguments, home=configured)

    assert result.returncode == 0, result.stderr
    assert "09:30" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nope", "x"), "No MCP server named “nope” is configured"),
        (("time", "nope"), "time has no tool named “nope”"),
        (("time", "get_current_time", "{timezone: UTC"), "the arguments are not JSON"),
        (("time", "get_current_time", "[1, 2]"), "the arguments must be a JSON object"),
        (("ghost", "x"), "ghost: the command glassbox-no-such-mcp-server was not found"),
    ],
)
def test_call_says_what_is_wrong_in_one_line(
    configured: Path, args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _out, err = _run(capsys, "mcp", "call", *args)

    assert status == 1
    assert err.startswith("glassbox: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_a_tool_that_reports_an_error_prints_it_and_exits_1(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(capsys, "mcp", "call", "time", "get_current_time", '{"timezone": "Nowhere/Never"}')

    assert status == 1
    assert "Nowhere/Never" in out
    assert "the tool get_current_time reported an error" in err


def test_a_malformed_mcp_json_is_said(isolated_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (isolated_home / "config").mkdir(parents=True, exist_ok=True)
    (isolated_home / "config" / "mcp.json").write_text("{oops")

    status, _out, err = _run(capsys, "mcp", "list")

    assert status == 1
    assert "mcp.json is not valid JSON (line 1" in err
