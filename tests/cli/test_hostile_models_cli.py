"""A model file llama.cpp would abort on is refused on the command line in one line: import, chat, selftest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.bench.synthetic_gguf import SyntheticModel, set_metadata, write_synthetic_model
from app.core.paths import app_paths
from app.main import main

SPEC = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_head_kv=2, n_ff=128, n_vocab=300)


def _hostile(folder: Path, key: str, value: int | float) -> Path:
    path = write_synthetic_model(folder / "bad.gguf", SPEC)
    set_metadata(path, key, value)
    return path


def _glassbox(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GLASSBOX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=180, env=env)


def test_models_import_refuses_a_file_llama_cpp_would_abort_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _hostile(tmp_path, "llama.block_count", 0)
    assert main(["models", "import", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"glassbox: error: Cannot use model file {bad}: llama.block_count is 0; a model needs at least one layer"
    ]
    assert not list(app_paths().models.rglob("*.gguf"))


@pytest.mark.parametrize(
    ("command", "key", "value", "reason"),
    [
        ("chat", "llama.context_length", 2**32 - 1, "llama.context_length is 4294967295"),
        ("chat", "llama.attention.layer_norm_rms_epsilon", -1.0, "layer_norm_rms_epsilon is -1.0"),
        ("selftest", "llama.block_count", 2**32 - 1, "llama.block_count is 4294967295"),
    ],
)
def test_chat_and_selftest_refuse_a_hostile_file_in_one_line(
    isolated_home: Path, tmp_path: Path, command: str, key: str, value: int | float, reason: str
) -> None:
    bad = _hostile(tmp_path, key, value)
    args = ["--prompt", "hi"] if command == "chat" else []
    result = _glassbox(command, *args, "--model", str(bad), home=isolated_home)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr  # no traceback, no llama.cpp log
    assert lines[0].startswith(f"glassbox: error: Cannot use model file {bad}: ") and reason in lines[0]
