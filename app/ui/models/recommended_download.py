"""A recommended model's downloads: its file at once, or, for a model that reads images, its file and projector.

The recommendations hold one file each and ask the Hub nothing while the list is open. A vision model
needs its projector (`mmproj-*.gguf`) too, and which one a repository publishes is not in the curated
data (repositories add, rename and drop them), so the Download of a model marked as vision lists its
repository then, on a thread of its own, with the Models window's Hub client, and takes the projector the
Models window's rule picks (`app.core.hub.variant_download`): both files pinned to the listing's commit
and checked against its SHA-256, the projector landing beside the model where the library pairs them. A
repository without a projector gives the model alone, with a note that it will read text only; a listing
that fails gives its reason and no download at all.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from app.core.hub.client import HubClient, HubError
from app.core.hub.downloads.job import DownloadRequest
from app.core.hub.token_store import TokenStore
from app.core.hub.variant_download import FileDownload, file_download
from app.core.models.recommended import RecommendedModel
from app.core.support.formatting import fill
from app.ui.threads import JobThreads, WorkerThread


def hub_client() -> HubClient:
    """The Hub as the Models window reaches it: its endpoint (or mirror) and the saved token."""
    return HubClient(token=TokenStore().get())


class RepositoryLister(QObject):
    """Lists one recommendation's repository, on its own thread (the token is read there too)."""

    listRequested = Signal(object)  # RecommendedModel
    listed = Signal(object, object)  # RecommendedModel, FileDownload
    failed = Signal(object, object)  # RecommendedModel, the reason for the user (a core text)

    def __init__(self) -> None:
        super().__init__()
        self.listRequested.connect(self._list)

    @Slot(object)
    def _list(self, model: RecommendedModel) -> None:
        try:
            download = file_download(hub_client().listing(model.repo_id), model.filename)
        except HubError as error:
            self.failed.emit(model, error.message)
            return
        self.listed.emit(model, download)


class RecommendedDownloads(QObject):
    """Turns a Download of the list into the requests for the Models window's queue."""

    ready = Signal(object, object, object)  # RecommendedModel, list[DownloadRequest], a note for the user or ""
    failed = Signal(object, object)  # RecommendedModel, what went wrong (nothing was downloaded)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._asking: dict[str, JobThreads] = {}  # a vision model's file name -> the listing of its repository
        self._jobs: list[JobThreads] = []  # every listing whose thread may not have ended yet

    def start(self, model: RecommendedModel) -> None:
        """A text model's file goes at once; a vision model's once its repository has been listed."""
        if not model.vision:
            self.ready.emit(model, [DownloadRequest(model.repo_id, model.filename)], "")
            return
        if model.filename in self._asking:
            return  # already asking
        lister = RepositoryLister()
        lister.listed.connect(self._on_listed)
        lister.failed.connect(self._on_failed)
        jobs = JobThreads()
        jobs.start(lister, "recommended-listing")
        self._asking[model.filename] = jobs
        self._jobs = [*(j for j in self._jobs if j.is_running()), jobs]
        lister.listRequested.emit(model)

    def is_asking(self, model: RecommendedModel) -> bool:
        return model.filename in self._asking

    @Slot(object, object)
    def _on_listed(self, model: RecommendedModel, download: FileDownload) -> None:
        self._answered(model)
        note = ""
        if download.projector is None:
            note = fill(
                self.tr("{repo} publishes no projector for {name}, so it will read text only."),
                repo=model.repo_id,
                name=model.name,
            )
        self.ready.emit(model, download.requests, note)

    @Slot(object, object)
    def _on_failed(self, model: RecommendedModel, reason: str) -> None:
        self._answered(model)
        message = fill(
            self.tr("{name} was not downloaded, as its projector could not be looked up. {reason}"),
            name=model.name,
            reason=reason,
        )
        self.failed.emit(model, message)

    def _answered(self, model: RecommendedModel) -> None:
        jobs = self._asking.pop(model.filename, None)
        if jobs is not None:
            jobs.end()  # one answer per listing: its thread ends with it

    def threads(self) -> list[WorkerThread]:
        """The listings' threads (one that has answered ends soon after)."""
        return [jobs.current for jobs in self._jobs if jobs.current is not None]

    def shutdown(self) -> bool:
        """Stop the listings and wait for their threads; True once they have ended."""
        return all([jobs.shutdown() for jobs in self._jobs])
