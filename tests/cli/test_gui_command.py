"""`glassbox gui --model PATH`: a file that cannot be a model is refused with the reason, before any window."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

import app.ui.shell.application as application
from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.main import main

TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_vocab=300)


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> list[argparse.Namespace]:
    """The window runs that were started (none is: each is only noted)."""
    started: list[argparse.Namespace] = []

    def note(args: argparse.Namespace) -> int:
        started.append(args)
        return 0

    monkeypatch.setattr(application, "run_gui", note)
    return started


def test_a_model_file_that_does_not_exist_is_refused_with_the_reason(
    windows: list[argparse.Namespace], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.gguf"
    assert main(["gui", "--model", str(missing)]) == 1
    assert capsys.readouterr().err == f"glassbox: error: Cannot use model file {missing}: the file does not exist\n"
    assert windows == []  # no window, and so no other model in its stead


def test_a_file_that_is_not_a_gguf_model_is_refused_with_the_reason(
    windows: list[argparse.Namespace], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("These are my notes, not a model. " * 20)
    assert main(["gui", "--model", str(notes)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"glassbox: error: Cannot use model file {notes}: this is not a GGUF file")
    assert windows == []


def test_a_gguf_model_opens_the_window_with_it(windows: list[argparse.Namespace], tmp_path: Path) -> None:
    model = write_synthetic_model(tmp_path / "tiny-chat.gguf", TINY)
    assert main(["gui", "--model", str(model)]) == 0
    [args] = windows
    assert args.model == str(model)
