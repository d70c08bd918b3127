"""The servers' network work, off the GUI thread: testing a server and listing every saved server's models."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from app.core.backends.probe import ProbeResult, probe_server
from app.core.backends.remote import RemoteBackend, RemoteError
from app.core.backends.servers import SavedServer, ServerKeys, ServerModel
from app.core.support.formatting import fill
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TestRequest:
    server: SavedServer
    api_key: str | None  # None: the one in the keyring, if any


@dataclass(frozen=True)
class Tested:
    request: TestRequest
    found: ProbeResult | None
    error: str = ""


@dataclass(frozen=True)
class Listed:
    models: tuple[ServerModel, ...]
    errors: tuple[str, ...]  # one line per server that did not answer


class ServersWorker(QObject):
    testRequested = Signal(object)  # TestRequest
    listRequested = Signal(object)  # tuple[SavedServer, ...]
    tested = Signal(object)  # Tested
    listed = Signal(object)  # Listed

    def __init__(self) -> None:
        super().__init__()
        self.testRequested.connect(self._test)
        self.listRequested.connect(self._list)

    @Slot(object)
    def _test(self, request: TestRequest) -> None:
        key = request.api_key if request.api_key is not None else ServerKeys().get(request.server)
        try:
            found = probe_server(request.server.config(key))
        except RemoteError as error:
            self.tested.emit(Tested(request, None, error.message))
            return
        self.tested.emit(Tested(request, found))

    @Slot(object)
    def _list(self, servers: tuple[SavedServer, ...]) -> None:
        models: list[ServerModel] = []
        errors: list[str] = []
        for server in servers:
            backend = RemoteBackend(server.config(ServerKeys().get(server)))
            try:
                models.extend(ServerModel(server, model) for model in backend.list_models())
            except RemoteError as error:
                log.info("Listing the models of %s failed: %s", server.name, error.message)
                errors.append(fill("{server}: {error}", server=server.name, error=error.message))  # no words of its own
            finally:
                backend.close()
        self.listed.emit(Listed(tuple(models), tuple(errors)))


class ServersThread:
    def __init__(self) -> None:
        self.worker = ServersWorker()
        self.thread = WorkerThread(self.worker, "servers")
        self.thread.start()

    def request_stop(self) -> None:
        self.thread.request_stop()
