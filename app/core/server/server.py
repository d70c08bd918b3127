"""The API server: uvicorn on a thread of its own, with its own event loop, started and stopped cleanly.

The socket is bound here, before the thread starts, so a port in use or an address that is
not this machine's is a clear `ServerStartError` for the caller instead of a log line on a
thread. `stop()` stops every reply first (running ones at their next token, waiting ones
before they start), then asks uvicorn to finish and joins its thread: nothing is left
running. The model's queue belongs to the caller, who may share it with other work (the
window's own chats) and closes it after the server.

For a panel: `start()`/`stop()`, `running`, `base_url`, `request_log` (records and a
listener that is called on the server's threads), and `metrics`: this server's own
Prometheus registry (never the process-wide one, so two servers or a test never share
counts), kept across a stop and a start of the same server.
"""

from __future__ import annotations

import errno
import logging
import socket
import sys
import threading
import time

import uvicorn

from app.core.monitor.prometheus import ServerMetrics
from app.core.server.config import ServerConfig
from app.core.server.endpoints import ServerCore, build_app
from app.core.server.model_queue import ModelQueue
from app.core.server.request_log import RequestLog
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

START_TIMEOUT_S = 30.0
GRACEFUL_SHUTDOWN_S = 3  # for responses still being written when the server stops
WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1"}


class ServerStartError(Exception):
    """The server could not start; the message says why and what to change."""


class ApiServer:
    """One owner calls start() and stop(); the request log may be read from anywhere."""

    def __init__(self, config: ServerConfig, queue: ModelQueue, request_log: RequestLog | None = None) -> None:
        self.config = config.check()
        self.request_log = request_log or RequestLog(config.log_size, config.log_text)
        self.metrics = ServerMetrics()
        self._queue = queue
        self._core: ServerCore | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._port = config.port

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def port(self) -> int:
        """The port listened on (the one chosen when the config asked for port 0)."""
        return self._port

    @property
    def base_url(self) -> str:
        """What to paste into another program as its OpenAI base URL (this machine's address for a wildcard bind)."""
        host = WILDCARDS.get(self.config.host, self.config.host)
        return f"http://{_url_host(host)}:{self._port}/v1"

    def start(self) -> None:
        """Listen and serve; raises ServerStartError (the port in use, an address not this machine's)."""
        if self.running:
            return
        sock = _bind(self.config.host, self.config.port)
        self._port = int(sock.getsockname()[1])
        self._core = ServerCore(self.config, self._queue, self.request_log, self.metrics)
        config = uvicorn.Config(
            build_app(self._core),
            log_config=None,  # Glassbox's logging stays as it is
            access_log=False,  # the request log records every request, without the key
            lifespan="off",
            http="auto",  # httptools (C) where installed, else h11
            ws="none",
            loop="asyncio",
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="api-server")
        self._server, self._thread = server, thread
        thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            self.stop()
            sock.close()
            raise ServerStartError(
                fill(N_("The server on {url} did not start; see the log for why."), url=self.base_url)
            )
        log.info("API server listening on %s", self.base_url)

    def stop(self) -> None:
        """Stop every reply, end uvicorn and join its thread (bounded by its graceful-shutdown timeout)."""
        server, thread, core = self._server, self._thread, self._core
        self._server = self._thread = self._core = None
        if core is not None:
            core.stop_replies()
        if server is not None:
            server.should_exit = True
        if thread is not None:
            thread.join()
            log.info("API server stopped")
        if core is not None:
            core.embeddings.close()  # its child process, when a request opened one

    def __enter__(self) -> ApiServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if sys.platform != "win32":  # elsewhere it lets a restart reuse the port at once; on Windows it lets two bind
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        raise ServerStartError(_bind_failure(host, port, error)) from error
    except OverflowError as error:  # a port number out of range
        sock.close()
        raise ServerStartError(fill(N_("{port} is not a port number (0 to 65535)."), port=port)) from error
    return sock


def _bind_failure(host: str, port: int, error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return fill(
            N_("Port {port} on {host} is already in use (another server?); choose another port."), port=port, host=host
        )
    if error.errno == errno.EACCES:
        return fill(
            N_("This user may not listen on port {port} of {host}; choose a port above 1023."), port=port, host=host
        )
    if error.errno == errno.EADDRNOTAVAIL or isinstance(error, socket.gaierror):
        return fill(
            N_("{host} is not an address of this machine; use 127.0.0.1, or 0.0.0.0 for every network."), host=host
        )
    return fill(
        N_("Cannot listen on {host} port {port}: {error}."), host=host, port=port, error=error.strerror or error
    )


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
