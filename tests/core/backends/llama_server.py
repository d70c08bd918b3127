"""The remote backend's tests run against the bench's real `llama_cpp.server` (app/bench/llama_server.py);
a server that does not start fails the test with its log."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.llama_server import LlamaServer, ServerUnavailable
from app.bench.llama_server import start_llama_server as start_server


def start_llama_server(model: Path, log_dir: Path, api_key: str | None = None) -> LlamaServer:
    try:
        return start_server(model, log_dir, api_key)
    except ServerUnavailable as error:
        pytest.fail(str(error))
