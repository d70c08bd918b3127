"""A real OpenAI-compatible server, `llama_cpp.server` on a model, on loopback, as a child process.

Started on a free port and waited for until /v1/models answers; `stop()` ends it (terminate,
then kill), so no process is left behind. The `remote` bench section and the remote
backend's tests run against it; it needs llama-cpp-python's `[server]` extra.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx2

STARTUP_TIMEOUT_S = 120.0


class ServerUnavailable(RuntimeError):
    """The server could not be started; the message says why."""


@dataclass
class LlamaServer:
    process: subprocess.Popen[bytes]
    url: str
    log_path: Path

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_missing() -> str:
    """Why llama_cpp.server cannot run here, or "" when it can."""
    for module in ("llama_cpp.server", "uvicorn", "fastapi", "sse_starlette"):
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:
            found = False
        if not found:
            return f"{module} is not installed (pip install 'llama-cpp-python[server]')"
    return ""


def start_llama_server(model: Path, log_dir: Path, api_key: str | None = None, n_ctx: int = 2048) -> LlamaServer:
    """Start the server and wait until it answers; raises ServerUnavailable with its log's tail."""
    port = free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx)]
    if api_key:
        command += ["--api_key", api_key]
    log_path = log_dir / f"llama-server-{port}.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT)
    server = LlamaServer(process, f"http://127.0.0.1:{port}", log_path)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx2.get(f"{server.url}/v1/models", headers=headers, timeout=2).status_code == 200:
                return server
        except httpx2.HTTPError:
            pass
        time.sleep(0.2)
    server.stop()
    raise ServerUnavailable(f"llama_cpp.server did not start: {log_path.read_text(errors='replace')[-2000:]}")
