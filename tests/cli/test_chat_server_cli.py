"""`glassbox chat --server URL`: the reply comes from an OpenAI-compatible server (a real llama_cpp.server)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.bench.llama_server import LlamaServer, free_port
from tests.core.backends.llama_server import start_llama_server


@pytest.fixture(scope="module")
def keyed_server(starter_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    server = start_llama_server(starter_model, tmp_path_factory.mktemp("llama-server"), api_key="secret")
    yield server
    server.stop()


def _glassbox(*args: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "GLASSBOX_HOME": str(home), **env}
    command = [sys.executable, "-m", "app", "chat", "--prompt", "Say hello.", "--temperature", "0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=180, env=environment)


def test_the_reply_streams_from_the_server_with_the_key_from_the_environment(
    keyed_server: LlamaServer, isolated_home: Path
) -> None:
    result = _glassbox(
        "--server", keyed_server.url, "--api-key-env", "GB_KEY", "--max-tokens", "12", "--stats",
        home=isolated_home, GB_KEY="secret",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert "not sent to the server: top_k, min_p, repeat_penalty, repeat_last_n" in result.stderr
    assert "tok/s" in result.stderr


def test_a_wrong_key_exits_non_zero_with_one_line_saying_so(keyed_server: LlamaServer, isolated_home: Path) -> None:
    result = _glassbox("--server", keyed_server.url, "--api-key-env", "GB_KEY", home=isolated_home, GB_KEY="wrong")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "refused the API key" in result.stderr
    assert "wrong" not in result.stderr


def test_an_unset_key_variable_is_named(isolated_home: Path) -> None:
    result = _glassbox("--server", "http://127.0.0.1:1", "--api-key-env", "GB_NO_SUCH_KEY", home=isolated_home)
    assert result.returncode == 1
    assert "GB_NO_SUCH_KEY is not set" in result.stderr


def test_a_server_that_is_not_there_exits_non_zero_with_one_line(isolated_home: Path) -> None:
    result = _glassbox("--server", f"http://127.0.0.1:{free_port()}", "--model", "m", home=isolated_home)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "is the server running?" in result.stderr
