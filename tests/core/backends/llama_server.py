"""A real OpenAI-compatible server, `llama_cpp.server` on the starter model, on loopback, as a child process.

Started on a free port and waited for until /v1/models answers; stop_llama_server ends it
(terminate, then kill), so no process is left behind.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest

STARTUP_TIMEOUT_S = 120.0


@dataclass
class LlamaServer:
    process: subprocess.Popen[bytes]
    url: str
    log_path: Path

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_llama_server(model: Path, log_dir: Path, api_key: str | None = None) -> LlamaServer:
    port = free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"]
    if api_key:
        command += ["--api_key", api_key]
    log_path = log_dir / f"llama-server-{port}.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT)
    server = LlamaServer(process, f"http://127.0.0.1:{port}", log_path)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            if httpx2.get(f"{server.url}/v1/models", headers=headers, timeout=2).status_code == 200:
                return server
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    stop_llama_server(server)
    pytest.fail(f"llama_cpp.server did not start: {log_path.read_text(errors='replace')[-2000:]}")


def stop_llama_server(server: LlamaServer) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()
