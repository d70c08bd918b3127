"""The llama_cpp.server fixtures of the remote backend's tests (tests/core/backends/llama_server.py starts them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.bench.llama_server import LlamaServer
from tests.core.backends.llama_server import start_llama_server


@pytest.fixture(scope="module")
def llama_server(starter_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    server = start_llama_server(starter_model, tmp_path_factory.mktemp("llama-server"))
    yield server
    server.stop()


@pytest.fixture
def own_llama_server(starter_model: Path, tmp_path: Path) -> Iterator[LlamaServer]:
    """A server for one test only (to be killed mid-reply)."""
    server = start_llama_server(starter_model, tmp_path)
    yield server
    server.stop()


@pytest.fixture
def keyed_llama_server(starter_model: Path, tmp_path: Path) -> Iterator[LlamaServer]:
    """A server started with --api_key secret."""
    server = start_llama_server(starter_model, tmp_path, api_key="secret")
    yield server
    server.stop()
