"""MCP servers no one here wrote, for the client's tests: from PyPI (the `test` extra) and from npm.

The npm server is installed once per session into `.cache/npm-mcp` (gitignored) when it is not
there yet; the package and version are in `npm-packages.txt`, which CI's install step reads too.
Without npm the tests that need it fail with what to install: they are never skipped.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.tools.config import McpServer
from app.core.tools.manager import McpManager, Timeouts
from tests.repo import REPO_ROOT

HERE = Path(__file__).parent
NPM_PREFIX = REPO_ROOT / ".cache" / "npm-mcp"
EVERYTHING_JS = NPM_PREFIX / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
VENV_BIN = Path(sys.executable).parent
# Express listens on every interface by default; the tests' HTTP server listens on loopback only.
LOOPBACK_PRELOAD = """
const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (port, ...rest) {
  if (typeof port !== "number" && typeof port !== "string") return listen.call(this, port, ...rest);
  const callbacks = rest.filter((a) => typeof a === "function");
  return listen.call(this, Number(port), "127.0.0.1", ...callbacks);
};
"""


def python_server(name: str, script: str, *args: str) -> McpServer:
    """A server that is a console script of this environment's Python packages."""
    return McpServer(name, command=str(VENV_BIN / script), args=args)


def misbehaving_server(name: str, *args: str) -> McpServer:
    return McpServer(name, command=sys.executable, args=(str(HERE / "misbehaving_server.py"), *args))


@pytest.fixture(scope="session")
def everything_js() -> Path:
    """server-everything's entry point, installed with npm the first time."""
    if not EVERYTHING_JS.exists():
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            pytest.fail("the MCP tests need Node.js and npm (apt-get install nodejs npm) to install server-everything")
        packages = (HERE / "npm-packages.txt").read_text().split()
        subprocess.run(
            [npm, "install", "--prefix", str(NPM_PREFIX), "--no-audit", "--no-fund", "--loglevel=error", *packages],
            check=True,
            timeout=300,
        )
    return EVERYTHING_JS


@pytest.fixture
def everything_stdio(everything_js: Path) -> McpServer:
    return McpServer("everything", command="node", args=(str(everything_js), "stdio"))


@pytest.fixture
def everything_http(everything_js: Path, tmp_path: Path) -> Iterator[McpServer]:
    """server-everything over streamable HTTP on a free loopback port, ended after the test."""
    preload = tmp_path / "loopback.cjs"
    preload.write_text(LOOPBACK_PRELOAD)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        ["node", "--require", str(preload), str(everything_js), "streamableHttp"],
        env={"PATH": "/usr/bin:/bin", "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process)
        yield McpServer("everything-http", url=f"http://127.0.0.1:{port}/mcp")
    finally:
        process.terminate()
        process.wait(10)


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    for _attempt in range(200):
        if process.poll() is not None:
            pytest.fail(f"server-everything over HTTP exited at start ({process.returncode})")
        with socket.socket() as client:
            if client.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    pytest.fail("server-everything over HTTP did not listen within 10 s")


@pytest.fixture
def manager() -> Iterator[McpManager]:
    """A manager with short timeouts; closed after the test, which ends every server it started."""
    manager = McpManager(timeouts=Timeouts(start_s=30.0, list_s=10.0, call_s=20.0))
    try:
        yield manager
    finally:
        manager.close()
