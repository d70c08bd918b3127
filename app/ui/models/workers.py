"""Workers of the Models page: Hub requests on one thread, hashing and file work on another.

Two threads so a long import or verify never holds up a search. Requests come in as queued
signals (`*Requested`), results leave as signals; a failure is a `failed(what, message)`
signal with the message for the user. Hashing is cancelled through a `threading.Event` the
GUI thread sets directly.
"""

from __future__ import annotations

import threading
import time
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.core.hub.client import HubClient, HubError, incomplete_split
from app.core.hub.remote_header import read_variant_headers
from app.core.hub.token_store import TokenStore, TokenStoreError
from app.core.memory.fit import Candidate, assess, machine_now
from app.core.models.elsewhere import FoundModel, find_models_elsewhere
from app.core.models.gguf_info import GgufInfo
from app.core.models.hashing import Cancelled, VerifiedIndex
from app.core.models.importing import AlreadyInLibrary, import_model, link_model
from app.core.models.library import InstalledModel, LibraryError, delete_model, library_entries, verify_model
from app.core.models.validation import ModelFileError
from app.core.settings import saved_context
from app.core.support.formatting import fill
from app.core.support.user_text import text_of
from app.ui.threads import WorkerThread, rearm

PROGRESS_INTERVAL_S = 0.1


class TokenState(Enum):
    """Where the Hub token comes from, for the window to word (and to know whether one can be saved)."""

    SAVED = "saved in the keyring"
    FROM_ENVIRONMENT = "HF_TOKEN from the environment"
    NONE = "no token"
    NO_KEYRING = "no keyring to save one in"


class HubWorker(QObject):
    searchRequested = Signal(str)
    listingRequested = Signal(str)
    tokenSaveRequested = Signal(str)
    tokenClearRequested = Signal()
    tokenStatusRequested = Signal()

    searchFinished = Signal(object)  # list[RepoSummary]
    listingFinished = Signal(object, object)  # RepoListing, Assessment (each variant's fit, the suggestion)
    tokenStatus = Signal(object)  # TokenState
    failed = Signal(str, object, object)  # (what was asked, message for the user (str), the HubError or None)

    def __init__(self, token_store: TokenStore) -> None:
        super().__init__()
        self.token_store = token_store
        self.closing = threading.Event()  # set when Glassbox closes: header reads end between chunks
        self.searchRequested.connect(self._search)
        self.listingRequested.connect(self._listing)
        self.tokenSaveRequested.connect(self._save_token)
        self.tokenClearRequested.connect(self._clear_token)
        self.tokenStatusRequested.connect(self._token_status)

    def _client(self) -> HubClient:
        return HubClient(token=self.token_store.get())

    @Slot(str)
    def _search(self, text: str) -> None:
        try:
            self.searchFinished.emit(self._client().search(text))
        except HubError as error:
            self.failed.emit("search", error.message, error)

    @Slot(str)
    def _listing(self, repo_id: str) -> None:
        """The listing, then every variant's header (HTTP ranges) planned on this machine."""
        client = self._client()
        try:
            listing = client.listing(repo_id)
        except HubError as error:
            self.failed.emit("listing", error.message, error)
            return
        headers = read_variant_headers(client, listing, self.closing)
        if self.closing.is_set():
            return
        candidates = [
            Candidate(v.key, v.quant, v.size, header if isinstance(header := headers.get(v.key), GgufInfo) else None)
            for v in listing.variants
            if incomplete_split(v) is None
        ]
        self.listingFinished.emit(listing, assess(candidates, machine_now(), saved_context()))

    @Slot(str)
    def _save_token(self, token: str) -> None:
        try:
            self.token_store.set(token)
        except TokenStoreError as error:
            self.failed.emit("token", text_of(error), None)
            return
        self._token_status()

    @Slot()
    def _clear_token(self) -> None:
        try:
            self.token_store.clear()
        except TokenStoreError as error:
            self.failed.emit("token", text_of(error), None)
            return
        self._token_status()

    @Slot()
    def _token_status(self) -> None:
        if self.token_store.saved_in_keyring():
            self.tokenStatus.emit(TokenState.SAVED)
        elif self.token_store.get():
            self.tokenStatus.emit(TokenState.FROM_ENVIRONMENT)
        elif not self.token_store.available():
            self.tokenStatus.emit(TokenState.NO_KEYRING)
        else:
            self.tokenStatus.emit(TokenState.NONE)


class LibraryWorker(QObject):
    refreshRequested = Signal(object)  # models folder (Path)
    verifyRequested = Signal(object, object)  # InstalledModel, models folder
    importRequested = Signal(object, object)  # source Path, models folder
    deleteRequested = Signal(object, object)  # InstalledModel, models folder
    scanRequested = Signal()  # look for models other apps keep on this computer
    linkRequested = Signal(object, object)  # FoundModel, models folder: add it in place

    refreshed = Signal(object)  # list[LibraryEntry]
    verified = Signal(object, object)  # InstalledModel, VerifyResult
    imported = Signal(object)  # InstalledModel (copied in, or added in place)
    alreadyInLibrary = Signal(object)  # AlreadyInLibrary: nothing was copied or added
    scanned = Signal(object)  # list[FoundModel]
    deleted = Signal(object)  # InstalledModel
    progress = Signal(str, object, object)  # (what, bytes done, bytes total); ints may pass 2**31
    failed = Signal(str, object)  # (what was asked, message for the user (str))

    def __init__(self) -> None:
        super().__init__()
        self.cancel = threading.Event()
        self.closing = threading.Event()  # set first when the thread is asked to stop: no new job runs
        self._last_progress = 0.0
        self.refreshRequested.connect(self._refresh)
        self.verifyRequested.connect(self._verify)
        self.importRequested.connect(self._import)
        self.deleteRequested.connect(self._delete)
        self.scanRequested.connect(self._scan)
        self.linkRequested.connect(self._link)

    @Slot(object)
    def _refresh(self, models_dir: Path) -> None:
        try:
            self.refreshed.emit(library_entries(models_dir))
        except OSError as error:
            unreadable = self.tr("The models folder {folder} cannot be read: {reason}.")
            self.failed.emit("library", fill(unreadable, folder=models_dir, reason=error.strerror or error))

    @Slot(object, object)
    def _verify(self, model: InstalledModel, models_dir: Path) -> None:
        rearm(self.cancel, self.closing)
        try:
            result = verify_model(
                model,
                VerifiedIndex(models_dir),
                self._reporter(fill(self.tr("Verifying {name}"), name=model.name)),
                self.cancel,
            )
        except Cancelled:
            self.failed.emit("verify", fill(self.tr("Verifying {name} was cancelled."), name=model.name))
            return
        except OSError as error:
            unreadable = self.tr("{name} cannot be read: {reason}.")
            self.failed.emit("verify", fill(unreadable, name=model.name, reason=error.strerror or error))
            return
        self.verified.emit(model, result)
        self._refresh(models_dir)

    @Slot(object, object)
    def _import(self, source: Path, models_dir: Path) -> None:
        rearm(self.cancel, self.closing)
        try:
            model = import_model(
                source, models_dir, self._reporter(fill(self.tr("Importing {name}"), name=source.name)), self.cancel
            )
        except Cancelled:
            cancelled = self.tr("Importing {name} was cancelled; nothing was added.")
            self.failed.emit("import", fill(cancelled, name=source.name))
            return
        except AlreadyInLibrary as error:
            self.alreadyInLibrary.emit(error)
            return
        except (LibraryError, ModelFileError) as error:
            self.failed.emit("import", text_of(error))
            return
        self.imported.emit(model)
        self._refresh(models_dir)

    @Slot()
    def _scan(self) -> None:
        self.scanned.emit(find_models_elsewhere())

    @Slot(object, object)
    def _link(self, found: FoundModel, models_dir: Path) -> None:
        rearm(self.cancel, self.closing)
        try:
            model = link_model(
                found.path,
                models_dir,
                found.name,
                found.source,
                found.sha256,
                self._reporter(fill(self.tr("Checking {name}"), name=found.name)),
                self.cancel,
                found.projector,
            )
        except Cancelled:
            self.failed.emit("link", fill(self.tr("Adding {name} was cancelled; nothing was added."), name=found.name))
            return
        except AlreadyInLibrary as error:
            self.alreadyInLibrary.emit(error)
            return
        except (LibraryError, ModelFileError, OSError) as error:
            self.failed.emit("link", text_of(error))
            return
        self.imported.emit(model)
        self._refresh(models_dir)

    @Slot(object, object)
    def _delete(self, model: InstalledModel, models_dir: Path) -> None:
        try:
            delete_model(model, models_dir)
        except LibraryError as error:
            self.failed.emit("delete", text_of(error))
            return
        self.deleted.emit(model)
        self._refresh(models_dir)

    def _reporter(self, what: str):  # type: ignore[no-untyped-def]
        def report(done: int, total: int) -> None:
            now = time.monotonic()
            if done >= total or now - self._last_progress >= PROGRESS_INTERVAL_S:
                self._last_progress = now
                self.progress.emit(what, done, total)

        return report


class ModelWorkers:
    """Both workers and their threads. Stopping drops the queued requests and cancels hashing and
    copying at the next chunk; a Hub request already on its way cannot be interrupted and
    ends within its own timeout."""

    def __init__(self, token_store: TokenStore | None = None) -> None:
        self.hub = HubWorker(token_store or TokenStore())
        self.library = LibraryWorker()
        self.threads = (
            WorkerThread(self.hub, "models-hub", flags=(self.hub.closing,)),
            WorkerThread(self.library, "models-library", flags=(self.library.closing, self.library.cancel)),
        )
        for thread in self.threads:
            thread.start()

    def request_stop(self) -> None:
        """Never waits."""
        for thread in self.threads:
            thread.request_stop()

    def shutdown(self) -> bool:
        """Stop both threads and wait for them; True once they have ended."""
        self.request_stop()
        return all([thread.wait() for thread in self.threads])
