"""The code passes its linter, its formatter and its type checker, configured in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.repo import REPO_ROOT


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    result = _run("ruff", "check", "--no-cache", "app", "tests", "packaging")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_formatted_as_ruff_formats_it() -> None:
    result = _run("ruff", "format", "--check", "--no-cache", "app", "tests", "packaging")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.timeout(900)  # a first run without a cache checks every module and its imports
def test_mypy_finds_nothing_in_the_app() -> None:
    result = _run("mypy", "app")
    assert result.returncode == 0, result.stdout + result.stderr
