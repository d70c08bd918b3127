"""`glassbox chat --tools`: the starter model calls a real MCP server's tool from the terminal, on this
computer or on a server (Glassbox's own API server, which reads the calls)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig
from app.main import main
from tests.core.tools.conftest import HERE, VENV_BIN
from tests.helpers.canned_server import DONE, FINISH, Canned, CannedServer, piece

ASK = ("chat", "--prompt", "What time is it in Tokyo?", "--max-tokens", "48", "--temperature", "0", "--seed", "1")


@pytest.fixture
def glassbox_server(starter_model: Path) -> Iterator[ApiServer]:
    """Glassbox's own API server with the starter model: it speaks OpenAI tool calling."""
    backend = LocalBackend()
    backend.load(LoadConfig(starter_model, n_ctx=2048))
    queue = ModelQueue(backend, 1)
    try:
        with ApiServer(ServerConfig(port=0), queue) as running:
            yield running
    finally:
        queue.close()
        backend.close()


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


def test_a_servers_model_calls_through_its_server_and_answers(
    configured: Path, glassbox_server: ApiServer, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            *ASK,
            "--server",
            glassbox_server.base_url,
            "--tools",
            "time",
            "--tool-choice",
            "required",
            "--approve",
            "always",
        ]
    )
    out, err = capsys.readouterr()

    assert status == 0, err
    [call_line] = [line for line in err.splitlines() if line.startswith("[tool] time.")]
    assert call_line.split("(")[0] in ("[tool] time.get_current_time", "[tool] time.convert_time")
    assert "[tool] → " in err
    assert out.strip()  # the answer, written after the model read the result


def test_a_server_that_refuses_tools_is_named_and_the_reply_comes_without_them(
    configured: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refusal = {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}}
    with closing(CannedServer()) as canned:
        canned.first_replies = [Canned(status=500, body=json.dumps(refusal).encode(), content_type="application/json")]
        canned.reply = Canned(body=piece("It is ") + piece("noon.") + FINISH + DONE)
        status = main([*ASK, "--server", canned.url, "--model", "m", "--tools", "time", "--approve", "always"])
    out, err = capsys.readouterr()

    assert status == 0, err
    assert out.strip() == "It is noon."
    assert f"{canned.url}/v1 refused the tools (500: tools param requires --jinja flag); " in err
    assert "[tool]" not in err
