"""One download: a file on its way from the Hub into the models folder, and the states it passes.

queued → downloading → verifying → installed, with paused, failed and cancelled on the way.
Control (pause, cancel, requeue, snapshot) comes from any thread; the work runs on the
job's own thread (`run`), which checks for pause and cancel between chunks.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import httpx2
from huggingface_hub.utils import hf_raise_for_status

from app.core.hub.client import HubClient, HubError, HubErrorKind, status_error
from app.core.hub.downloads.disk import FreeSpace, check_room, disk_free, ensure_folders
from app.core.hub.downloads.errors import DownloadError, Interrupted, NextStep
from app.core.hub.downloads.install import install_verified, installed_copy
from app.core.hub.downloads.sidecar import DownloadPlan, read_sidecar, write_sidecar
from app.core.hub.downloads.transfer import Interrupt, RangeTransfer, RetryPolicy, TransferHooks
from app.core.models.library import LibraryError
from app.core.models.names import model_destination, safe_component
from app.core.paths import AppPaths
from app.core.support.formatting import fill, format_bytes
from app.core.support.os_errors import describe_os_error
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

_SPEED_WINDOW_S = 5.0


class JobState(Enum):
    QUEUED = "queued"
    RUNNING = "downloading"
    PAUSED = "paused"
    VERIFYING = "verifying"
    DONE = "installed"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (JobState.DONE, JobState.FAILED, JobState.CANCELLED)


@dataclass(frozen=True)
class DownloadRequest:
    repo_id: str
    filename: str
    revision: str | None = None  # None means the default branch
    expected_sha256: str | None = None  # from the repository listing (LFS SHA-256)
    expected_size: int | None = None

    @property
    def key(self) -> str:
        text = f"{self.repo_id}\n{self.filename}\n{self.revision or 'main'}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class JobSnapshot:
    id: str
    repo_id: str
    filename: str
    state: JobState
    downloaded: int
    total: int | None
    speed_bps: float
    eta_s: float | None
    message: str
    destination: Path | None
    can_resume: bool
    error_kind: str | None = None
    error: DownloadError | None = None  # why the job failed: its problem and next step, for the CLI's own words

    @property
    def fraction(self) -> float | None:
        return self.downloaded / self.total if self.total else None


@dataclass
class DownloadSettings:
    paths: AppPaths
    endpoint: str | None = None
    token_provider: Callable[[], str | None] = lambda: None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    free_space: FreeSpace = disk_free


class DownloadJob:
    """One file on its way from the Hub into the models folder."""

    def __init__(self, request: DownloadRequest, settings: DownloadSettings, plan: DownloadPlan | None = None) -> None:
        self.id = uuid.uuid4().hex[:12]
        self.request = request
        self.settings = settings
        self._plan: DownloadPlan | None = plan
        self._lock = threading.Lock()
        self._interrupt = Interrupt()
        self._intent: str | None = None  # "pause" or "cancel"
        self._ended = threading.Event()
        self._ended.set()  # not running
        self._samples: deque[tuple[float, int]] = deque()
        hooks = TransferHooks(self._interrupt, self._progress, self._set_message, self._restarted, self._http_error)
        self._transfer = RangeTransfer(self._part_path(), settings.retry, settings.token_provider, hooks)
        self.state = JobState.PAUSED if plan else JobState.QUEUED
        self.downloaded = self._transfer.size() if plan else 0
        self.total: int | None = plan.expected_size if plan else request.expected_size
        self.message = "paused; press Resume to continue" if plan else "waiting"
        self.error_kind: str | None = None
        self.error: DownloadError | None = None  # why the job failed, when it did
        self.resumable = True
        self.destination: Path | None = None

    @property
    def rehashed_bytes(self) -> int:
        """Bytes hashed again from disk to resume (for tests and the bench)."""
        return self._transfer.rehashed_bytes

    @property
    def attempts(self) -> int:
        """Requests made for the file's bytes (for tests and the bench)."""
        return self._transfer.attempts

    # ---- control (any thread) -----------------------------------------------------------------

    def pause(self) -> None:
        with self._lock:
            if self.state in (JobState.RUNNING, JobState.VERIFYING):
                self._intent = "pause"
                self._interrupt.set()
            elif self.state is JobState.QUEUED:
                self._set(JobState.PAUSED, "paused; press Resume to continue")

    def cancel(self) -> None:
        """Stop and delete the partial file. A running job does it itself when it sees the request."""
        with self._lock:
            if self.state in (JobState.RUNNING, JobState.VERIFYING):
                self._intent = "cancel"
                self._interrupt.set()
                return
            if self.state is JobState.DONE:
                return
            self._discard_partial()
            self._set(JobState.CANCELLED, "cancelled; the partial file was deleted")

    def requeue(self) -> None:
        with self._lock:
            self.resumable = True
            self._set(JobState.QUEUED, "waiting")

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job's thread has stopped (done, failed, paused or cancelled)."""
        return self._ended.wait(timeout)

    def snapshot(self) -> JobSnapshot:
        with self._lock:
            speed = self._speed()
            remaining = (self.total - self.downloaded) if self.total else None
            eta = remaining / speed if remaining is not None and speed > 0 and self.state is JobState.RUNNING else None
            return JobSnapshot(
                id=self.id,
                repo_id=self.request.repo_id,
                filename=self.request.filename,
                state=self.state,
                downloaded=self.downloaded,
                total=self.total,
                speed_bps=speed if self.state is JobState.RUNNING else 0.0,
                eta_s=eta,
                message=self.message,
                destination=self.destination,
                can_resume=self.state in (JobState.PAUSED, JobState.QUEUED)
                or (self.state is JobState.FAILED and self.resumable),
                error_kind=self.error_kind,
                error=self.error if self.state is JobState.FAILED else None,
            )

    # ---- running (the job's own thread) -------------------------------------------------------

    def try_start(self) -> bool:
        """Called by the manager right before it starts the job's thread; False if no longer queued."""
        with self._lock:
            if self.state is not JobState.QUEUED:
                return False
            self._interrupt.clear()
            self._intent = None
            self._ended.clear()
            self.error_kind = None
            self.error = None
            self.resumable = True
            self._samples.clear()
            self._set(JobState.RUNNING, "starting")
            return True

    def run(self) -> None:
        try:
            plan = self._make_plan()
            if self._already_installed(plan):
                return
            check_room(self.settings.paths, plan, self._transfer.size(), self.settings.free_space)
            size = self._transfer.hash_existing(plan)
            with self._lock:
                self.downloaded = size
            self._check_interrupt()
            self._transfer.complete(plan)
            self._check_interrupt()
            self._verify_and_install(plan)
        except Interrupted:
            self._stopped_by_user()
        except DownloadError as error:
            self._fail(error)
        except OSError as error:  # a folder that became read-only, a file in the way: said like the others
            where = Path(error.filename).parent if error.filename else self.settings.paths.downloads
            self._fail(DownloadError(describe_os_error(error, where), "file system", next_step=NextStep.RESUME))
        except Exception as error:  # never let a job thread die silently
            log.exception("Download of %s failed unexpectedly", self.request.filename)
            self._fail(
                DownloadError(
                    fill(N_("Unexpected error: {error}."), error=error), "unexpected", next_step=NextStep.RESUME
                )
            )
        finally:
            self._ended.set()

    def _make_plan(self) -> DownloadPlan:
        if self._plan is not None:
            return self._plan
        paths = self.settings.paths
        ensure_folders(paths)
        sidecar = self._sidecar_path()
        existing = read_sidecar(sidecar)
        if existing is not None and self._matches(existing):
            log.info("Resuming %s from %s", self.request.filename, sidecar)
            self._plan = existing
            return existing
        # Bytes without a matching sidecar (none, or of an older version of the file) are not reused.
        self._part_path().unlink(missing_ok=True)
        sidecar.unlink(missing_ok=True)
        try:
            destination = model_destination(paths.models, self.request.repo_id, self.request.filename)
        except LibraryError as error:
            raise DownloadError(fill(N_("Refused: {error}."), error=error), "unsafe name", resumable=False) from error
        self._set_message("asking the Hub for the file")
        client = self._client()
        try:
            meta = client.file_metadata(self.request.repo_id, self.request.filename, self.request.revision)
        except HubError as error:
            raise DownloadError(error.message, error.kind.value, resumable=error.retryable) from error
        expected_sha = (self.request.expected_sha256 or meta.sha256 or "").lower()
        if self.request.expected_sha256 and meta.sha256 and meta.sha256 != self.request.expected_sha256.lower():
            raise DownloadError(
                fill(
                    N_("{filename} changed on the Hub since the file list was loaded."), filename=self.request.filename
                ),
                "changed",
                resumable=False,
                next_step=NextStep.REFRESH,
            )
        if not expected_sha:
            raise DownloadError(
                fill(
                    N_(
                        "The Hub gives no SHA-256 for {filename}, so it cannot be verified; Glassbox "
                        "installs only verified files."
                    ),
                    filename=self.request.filename,
                ),
                "unverifiable",
                resumable=False,
            )
        size = meta.size if meta.size is not None else self.request.expected_size
        if size is None:
            raise DownloadError(
                fill(N_("The Hub gives no size for {filename}."), filename=self.request.filename),
                "protocol",
                resumable=False,
            )
        if self.request.expected_size is not None and size != self.request.expected_size:
            raise DownloadError(
                fill(
                    N_("{filename}: the Hub lists {expected_size} bytes but serves {size}."),
                    filename=self.request.filename,
                    expected_size=self.request.expected_size,
                    size=size,
                ),
                "size mismatch",
                resumable=False,
                next_step=NextStep.REFRESH,
            )
        plan = DownloadPlan(
            repo_id=self.request.repo_id,
            filename=self.request.filename,
            revision=self.request.revision,
            url=meta.url,
            commit=meta.commit,
            expected_sha256=expected_sha,
            expected_size=size,
            etag=meta.etag,
            destination=destination.relative_to(paths.models).as_posix(),
        )
        try:
            write_sidecar(sidecar, plan)
        except OSError as error:
            raise DownloadError(
                describe_os_error(error, sidecar.parent), N_("not writable"), next_step=NextStep.RESUME
            ) from error
        self._plan = plan
        with self._lock:
            self.total = size
        return plan

    def _matches(self, plan: DownloadPlan) -> bool:
        """Whether a sidecar describes this request (and the file has not changed on the Hub since)."""
        wanted_sha = (self.request.expected_sha256 or plan.expected_sha256).lower()
        return (
            plan.repo_id == self.request.repo_id
            and plan.filename == self.request.filename
            and plan.expected_sha256 == wanted_sha
        )

    def _already_installed(self, plan: DownloadPlan) -> bool:
        """The same verified file is already in the library: nothing to download."""
        destination = installed_copy(self.settings.paths.models, plan)
        if destination is None:
            return False
        self._part_path().unlink(missing_ok=True)
        self._sidecar_path().unlink(missing_ok=True)
        with self._lock:
            self.destination = destination
            self.downloaded = plan.expected_size
            self._set(JobState.DONE, "already installed and verified")
        return True

    def _check_interrupt(self) -> None:
        if self._interrupt.is_set():
            raise Interrupted()

    def _verify_and_install(self, plan: DownloadPlan) -> None:
        self._set(JobState.VERIFYING, "checking SHA-256")
        sha256 = self._transfer.sha256()
        destination = install_verified(self._part_path(), plan, sha256, self.settings.paths.models)
        self._sidecar_path().unlink(missing_ok=True)
        with self._lock:
            self.destination = destination
            self._set(JobState.DONE, f"installed and verified (SHA-256 {sha256[:12]}…)")

    # ---- helpers ------------------------------------------------------------------------------

    def _client(self) -> HubClient:
        return HubClient(self.settings.endpoint, self.settings.token_provider())

    def _http_error(self, response: httpx2.Response, has_token: bool) -> DownloadError:
        client = self._client()
        try:
            hf_raise_for_status(response)
        except Exception as error:  # turned into a HubError with a message for the user
            hub_error = client.translate_error(error, self.request.repo_id, self.request.filename, "download the file")
        else:
            hub_error = status_error(response.status_code, client.endpoint, has_token, "download the file")
        return DownloadError(
            hub_error.message, hub_error.kind.value, resumable=hub_error.kind is not HubErrorKind.NOT_FOUND
        )

    def _restarted(self) -> None:
        with self._lock:
            self.downloaded = 0
            self._samples.clear()

    def _discard_partial(self) -> None:
        self._part_path().unlink(missing_ok=True)
        self._sidecar_path().unlink(missing_ok=True)
        self._transfer.forget()
        self._plan = None
        self.downloaded = 0

    def _stopped_by_user(self) -> None:
        with self._lock:
            if self._intent == "cancel":
                self._discard_partial()
                self._set(JobState.CANCELLED, "cancelled; the partial file was deleted")
            else:
                self._set(JobState.PAUSED, f"paused at {format_bytes(self.downloaded)}; press Resume to continue")

    def _fail(self, error: DownloadError) -> None:
        log.warning("Download of %s failed: %s", self.request.filename, error.message)
        with self._lock:
            self.error_kind = error.kind
            self.error = error
            self.resumable = error.resumable
            if not error.resumable:
                self._discard_partial()
            self._set(JobState.FAILED, error.message)

    def _progress(self, downloaded: int) -> None:
        now = time.monotonic()
        with self._lock:
            self.downloaded = downloaded
            if not self._samples or now - self._samples[-1][0] >= 0.1:
                self._samples.append((now, downloaded))
                while len(self._samples) > 2 and now - self._samples[0][0] > _SPEED_WINDOW_S:
                    self._samples.popleft()

    def _speed(self) -> float:
        """Bytes per second over the last few seconds, up to now: a stalled transfer slows to 0."""
        if len(self._samples) < 2:
            return 0.0
        (t0, b0), (_, b1) = self._samples[0], self._samples[-1]
        elapsed = time.monotonic() - t0
        return (b1 - b0) / elapsed if elapsed > 0 else 0.0

    def _set(self, state: JobState, message: str) -> None:
        self.state = state
        self.message = message

    def _set_message(self, message: str) -> None:
        with self._lock:
            self.message = message

    def _part_path(self) -> Path:
        return self.settings.paths.downloads / f"{self._stem()}.part"

    def _sidecar_path(self) -> Path:
        return self.settings.paths.downloads / f"{self._stem()}.json"

    def _stem(self) -> str:
        try:
            name = safe_component(self.request.filename.replace("\\", "/").rsplit("/", 1)[-1])
        except LibraryError:
            name = "file"
        return f"{self.request.key}-{name}"
