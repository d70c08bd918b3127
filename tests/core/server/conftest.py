"""One loaded starter model per module, served by a real ApiServer on loopback, read by the real `openai` client.

Servers with other settings (an API key, CORS origins, small limits) share the module's
model queue, so each test costs requests, not model loads; a queue has one worker thread,
so the model still has one owner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import openai
import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig

N_CTX = 2048
QUEUE_LIMIT = 1  # one request may wait behind the running one: the queue-full test needs a small bound

Serve = Callable[..., ApiServer]


@pytest.fixture(scope="module")
def model_queue(starter_model: Path) -> Iterator[ModelQueue]:
    backend = LocalBackend()
    backend.load(LoadConfig(starter_model, n_ctx=N_CTX))
    queue = ModelQueue(backend, QUEUE_LIMIT)
    yield queue
    queue.close()
    backend.close()


@pytest.fixture(scope="module")
def server(model_queue: ModelQueue) -> Iterator[ApiServer]:
    """The default server: loopback, no key, no CORS origins, a free port."""
    with ApiServer(ServerConfig(port=0, log_text=True), model_queue) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: ApiServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0) as official:
        yield official


@pytest.fixture
def serve(model_queue: ModelQueue) -> Iterator[Serve]:
    """Start a server with other settings on the module's queue; stopped after the test."""
    started: list[ApiServer] = []

    def start(**settings: object) -> ApiServer:
        server = ApiServer(ServerConfig(port=0, **settings), model_queue)  # type: ignore[arg-type]
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
