"""`glassbox chat --tools`: the starter model calls a real MCP server's tool from the terminal."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from app.main import main
from tests.core.tools.conftest import HERE, VENV_BIN

ASK = ("chat", "--prompt", "What time is it in Tokyo?", "--max-tokens", "48", "--temperature", "0", "--seed", "1")


@pytest.fixture
def configured(isolated_home: Path) -> Path:
    (isolated_home / "config").mkdir(parents=True, exist_ok=True)
    servers = {
        "time": {"command": str(VENV_BIN / "mcp-server-time"), "args": ["--local-timezone", "UTC"]},
        "odd": {"command": sys.executable, "args": [str(HERE / "misbehaving_server.py")]},
    }
    (isolated_home / "config" / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
    return isolated_home


def test_a_required_call_runs_unasked_with_approve_always_and_the_model_answers(
    configured: Path, starter_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([*ASK, "--tools", "time", "--tool-choice", "required", "--approve", "always"])
    out, err = capsys.readouterr()

    assert status == 0, err
    [call_line] = [line for line in err.splitlines() if line.startswith("[tool] time.")]
    assert call_line.split("(")[0] in ("[tool] time.get_current_time", "[tool] time.convert_time")
    assert "[tool] → " in err  # the result, under its call
    assert "<tool_call>" not in out  # the call is shown as a call, not as the model's text


def test_without_a_terminal_to_ask_on_a_call_is_denied(
    configured: Path, starter_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([*ASK, "--tools", "odd", "--tool-choice", "required"])
    _out, err = capsys.readouterr()

    assert status == 0, err
    assert "[not run: no terminal to ask on; use --approve always to run calls unasked]" in err
    assert "[tool] → error: The user denied this call." in err


def test_tools_need_the_local_model(capsys: pytest.CaptureFixture[str]) -> None:
    status = main([*ASK, "--tools", "time", "--server", "http://127.0.0.1:9"])

    assert status == 1
    assert "--tools needs the model on this machine; leave out --server" in capsys.readouterr().err
