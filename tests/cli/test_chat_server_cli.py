"""`glassbox chat --server URL`: the reply comes from an OpenAI-compatible server (a real llama_cpp.server)."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.bench.llama_server import LlamaServer, free_port
from app.main import main
from tests.core.backends.llama_server import start_llama_server
from tests.fakes.memory_keyring import MemoryKeyring


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


def test_a_saved_server_is_tested_listed_chatted_with_by_name_and_removed(
    keyed_server: LlamaServer,
    isolated_home: Path,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("GB_KEY", "secret")
    assert main(["servers", "add", "team", keyed_server.url, "--api-key-env", "GB_KEY"]) == 0
    added = capsys.readouterr().out
    assert "team: llama-cpp-python" in added and "its key in the system keyring" in added
    assert memory_keyring.get_password("Glassbox", "server:team") == "secret"
    assert "secret" not in (isolated_home / "config" / "settings.json").read_text()

    assert main(["servers", "list"]) == 0
    listed = capsys.readouterr().out
    assert "team" in listed and keyed_server.url in listed and "llama-cpp-python" in listed and "yes" in listed

    chat = ["chat", "--prompt", "Say hello.", "--server", "team", "--max-tokens", "8", "--temperature", "0"]
    assert main(chat) == 0  # the key comes from the keyring
    assert capsys.readouterr().out.strip()

    assert main(["servers", "test", "team"]) == 0
    assert "token counts: exact" in capsys.readouterr().out

    assert main(["servers", "remove", "team"]) == 0
    assert memory_keyring.get_password("Glassbox", "server:team") is None
    assert main(["servers", "list"]) == 0
    assert "no servers saved" in capsys.readouterr().out


def test_a_server_that_does_not_answer_is_not_saved(
    isolated_home: Path, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["servers", "add", "gone", f"http://127.0.0.1:{free_port()}"]) == 1
    error = capsys.readouterr().err
    assert "cannot be reached" in error and "nothing was saved" in error
    assert main(["servers", "list"]) == 0
    assert "no servers saved" in capsys.readouterr().out


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "did not keep it")
@pytest.mark.usefixtures("null_keyring")
def test_a_server_whose_key_the_keyring_does_not_keep_is_not_saved_and_says_where(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("sk-typed\n"))
    assert main(["servers", "add", "team", "http://box:1", "--no-test", "--api-key-stdin"]) == 1
    out, err = capsys.readouterr()
    assert "saved team" not in out
    assert "API key was not saved" in err and "keyring.backends.null.Keyring" in err and "--api-key-env" in err
    assert main(["servers", "list"]) == 0
    assert "no servers saved" in capsys.readouterr().out


def test_a_wrong_key_is_named_when_testing(
    keyed_server: LlamaServer, isolated_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GB_KEY", "wrong")
    assert main(["servers", "test", keyed_server.url, "--api-key-env", "GB_KEY"]) == 1
    assert "refused the API key" in capsys.readouterr().err
