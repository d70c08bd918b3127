"""Download jobs: a queue with progress, pause/resume/cancel, retry with backoff, Range resume, SHA-256.

`hf_hub_download` deletes partial files, cannot be cancelled and never checks SHA-256, so the
bytes move here, on huggingface_hub's own HTTP session with its headers and token:

- The file grows in `downloads/<key>-<name>.part`; a sidecar `<key>-<name>.json` keeps the
  pinned URL, the expected SHA-256 and size and the ETag, so a download resumes with an HTTP
  Range request after a pause, a dropped connection or a restart of the app.
- SHA-256 is computed while the bytes arrive; a resumed download hashes only the bytes
  already on disk, once (within one process, not even that).
- Only a file whose size and SHA-256 match the Hub's LFS record is moved (atomically) into
  the models folder, and its hash is recorded in the library's verified index.

Qt-free: each running job is a plain thread; pause and cancel are events checked between
chunks. Callers poll `snapshot()` (the UI on a timer, the CLI in its loop).
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import logging
import os
import shutil
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import httpx2
from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

from app.core.hub.client import HubClient, HubError, HubErrorKind, status_error
from app.core.models.hashing import Cancelled, VerifiedIndex, VerifyState, sha256_file
from app.core.models.library import LibraryError
from app.core.support.os_errors import describe_os_error
from app.core.models.names import model_destination, safe_component
from app.core.paths import AppPaths, app_paths
from app.core.support.formatting import format_bytes

log = logging.getLogger(__name__)

SIDECAR_VERSION = 1
# Kept free beyond the file itself, so a download never fills the disk to the last byte.
DISK_MARGIN = 64 * 1024 * 1024
_SPEED_WINDOW_S = 5.0
# A stalled connection is dropped (and retried) after `read` seconds; pause and cancel act
# between chunks, so this also bounds how long they take on a stalled connection.
_TIMEOUT = httpx2.Timeout(connect=15.0, read=20.0, write=20.0, pool=15.0)


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
class RetryPolicy:
    """Failed attempts in a row before giving up; the wait doubles from `base_delay_s` up to `max_delay_s`."""

    attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0

    def delay(self, failures: int) -> float:
        return min(self.max_delay_s, self.base_delay_s * (2 ** max(0, failures - 1)))


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

    @property
    def fraction(self) -> float | None:
        return self.downloaded / self.total if self.total else None


@dataclass
class _Plan:
    """What the sidecar records: everything needed to resume without asking the Hub again."""

    repo_id: str
    filename: str
    revision: str | None
    url: str
    commit: str | None
    expected_sha256: str
    expected_size: int
    etag: str | None
    destination: str  # relative to the models folder
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    version: int = SIDECAR_VERSION


class DownloadError(Exception):
    """A download that stopped; `resumable` says whether Resume can go on from the bytes on disk."""

    def __init__(self, message: str, kind: str = "error", resumable: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.resumable = resumable


class _Interrupted(Exception):
    """Pause or cancel was requested; the job's intent says which."""


class _Retryable(Exception):
    """A transient failure (dropped connection, 5xx, timeout): wait and try again."""


FreeSpace = Callable[[Path], int]


def disk_free(path: Path) -> int:
    return shutil.disk_usage(path).free


@dataclass
class DownloadSettings:
    paths: AppPaths
    endpoint: str | None = None
    token_provider: Callable[[], str | None] = lambda: None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    free_space: FreeSpace = disk_free


class DownloadJob:
    """One file on its way from the Hub into the models folder."""

    def __init__(self, request: DownloadRequest, settings: DownloadSettings, plan: _Plan | None = None) -> None:
        self.id = uuid.uuid4().hex[:12]
        self.request = request
        self.settings = settings
        self._plan: _Plan | None = plan
        self._lock = threading.Lock()
        self._interrupt = threading.Event()
        self._intent: str | None = None  # "pause" or "cancel"
        self._ended = threading.Event()
        self._ended.set()  # not running
        self._hasher: "hashlib._Hash | None" = None
        self._hashed = 0  # bytes the hasher has seen (== part size while consistent)
        self._samples: deque[tuple[float, int]] = deque()
        self.state = JobState.PAUSED if plan else JobState.QUEUED
        self.downloaded = self._part_size() if plan else 0
        self.total: int | None = plan.expected_size if plan else request.expected_size
        self.message = "paused; press Resume to continue" if plan else "waiting"
        self.error_kind: str | None = None
        self.resumable = True
        self.destination: Path | None = None
        # Counters for tests and the bench: bytes hashed from disk on resume, attempts made.
        self.rehashed_bytes = 0
        self.attempts = 0

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
            )

    # ---- running (the job's own thread) -------------------------------------------------------

    def _try_start(self) -> bool:
        """Called by the manager right before it starts the job's thread; False if no longer queued."""
        with self._lock:
            if self.state is not JobState.QUEUED:
                return False
            self._interrupt.clear()
            self._intent = None
            self._ended.clear()
            self.error_kind = None
            self.resumable = True
            self._samples.clear()
            self._set(JobState.RUNNING, "starting")
            return True

    def run(self) -> None:
        try:
            plan = self._make_plan()
            if self._already_installed(plan):
                return
            self._check_room(plan)
            self._hash_existing(plan)
            self._check_interrupt()
            self._transfer_with_retries(plan)
            self._check_interrupt()
            self._verify_and_install(plan)
        except _Interrupted:
            self._stopped_by_user()
        except DownloadError as error:
            self._fail(error)
        except Exception as error:  # never let a job thread die silently
            log.exception("Download of %s failed unexpectedly", self.request.filename)
            self._fail(DownloadError(f"Unexpected error: {error}. Press Resume to try again.", "unexpected"))
        finally:
            self._ended.set()

    def _make_plan(self) -> _Plan:
        if self._plan is not None:
            return self._plan
        paths = self.settings.paths
        self._ensure_folders(paths)
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
            raise DownloadError(f"Refused: {error}.", "unsafe name", resumable=False) from error
        self._set_message("asking the Hub for the file")
        client = self._client()
        try:
            meta = client.file_metadata(self.request.repo_id, self.request.filename, self.request.revision)
        except HubError as error:
            raise DownloadError(error.message, error.kind.value, resumable=error.retryable) from error
        expected_sha = (self.request.expected_sha256 or meta.sha256 or "").lower()
        if self.request.expected_sha256 and meta.sha256 and meta.sha256 != self.request.expected_sha256.lower():
            raise DownloadError(
                f"{self.request.filename} changed on the Hub since the file list was loaded. "
                "Refresh the repository and choose again.",
                "changed",
                resumable=False,
            )
        if not expected_sha:
            raise DownloadError(
                f"The Hub gives no SHA-256 for {self.request.filename}, so it cannot be verified; "
                "Glassbox installs only verified files.",
                "unverifiable",
                resumable=False,
            )
        size = meta.size if meta.size is not None else self.request.expected_size
        if size is None:
            raise DownloadError(f"The Hub gives no size for {self.request.filename}.", "protocol", resumable=False)
        if self.request.expected_size is not None and size != self.request.expected_size:
            raise DownloadError(
                f"{self.request.filename}: the Hub lists {self.request.expected_size} bytes but serves {size}. "
                "Refresh the repository and try again.",
                "size mismatch",
                resumable=False,
            )
        plan = _Plan(
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
        write_sidecar(sidecar, plan)
        self._plan = plan
        with self._lock:
            self.total = size
        return plan

    def _matches(self, plan: _Plan) -> bool:
        """Whether a sidecar describes this request (and the file has not changed on the Hub since)."""
        wanted_sha = (self.request.expected_sha256 or plan.expected_sha256).lower()
        return (
            plan.repo_id == self.request.repo_id
            and plan.filename == self.request.filename
            and plan.expected_sha256 == wanted_sha
        )

    def _already_installed(self, plan: _Plan) -> bool:
        """The same verified file is already in the library: nothing to download."""
        models = self.settings.paths.models
        destination = models / plan.destination
        index = VerifiedIndex(models)
        record = index.lookup(destination)
        if record is None or record.sha256 != plan.expected_sha256 or index.state(destination) is not VerifyState.VERIFIED:
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
            raise _Interrupted()

    def _check_room(self, plan: _Plan) -> None:
        paths = self.settings.paths
        self._ensure_folders(paths)
        if not os.access(paths.models, os.W_OK):
            raise DownloadError(
                f"Glassbox may not write to the models folder {paths.models}. Check its permissions or choose "
                "another folder.",
                "not writable",
            )
        needed = plan.expected_size - self._part_size() + DISK_MARGIN
        free = self.settings.free_space(paths.downloads)
        if free < needed:
            raise DownloadError(
                f"Not enough disk space for {plan.filename}: it needs {format_bytes(needed)} more, "
                f"{format_bytes(free)} are free in {paths.downloads}. Free up space, then press Resume.",
                "disk full",
            )
        if not _same_device(paths.downloads, paths.models):
            free_models = self.settings.free_space(paths.models)
            if free_models < plan.expected_size + DISK_MARGIN:
                raise DownloadError(
                    f"Not enough disk space in the models folder {paths.models} for {plan.filename}: it needs "
                    f"{format_bytes(plan.expected_size)}, {format_bytes(free_models)} are free.",
                    "disk full",
                )

    def _hash_existing(self, plan: _Plan) -> None:
        """Bring the hasher up to the bytes on disk: nothing to do after an in-process pause."""
        part = self._part_path()
        size = self._part_size()
        if size > plan.expected_size:
            log.warning("%s is larger than the file it should become; starting over", part)
            part.unlink(missing_ok=True)
            size = 0
        if self._hasher is not None and self._hashed == size:
            return
        self._hasher = hashlib.sha256()
        self._hashed = 0
        if size:
            self._set_message(f"checking the {format_bytes(size)} already downloaded")
            try:
                sha256_file(part, cancel=self._interrupt, hasher=self._hasher)
            except Cancelled as error:
                raise _Interrupted() from error
            self.rehashed_bytes += size
            self._hashed = size
        with self._lock:
            self.downloaded = size

    def _transfer_with_retries(self, plan: _Plan) -> None:
        failures = 0
        while self._part_size() < plan.expected_size:
            before = self._part_size()
            try:
                self.attempts += 1
                self._transfer(plan)
            except _Retryable as problem:
                if self._interrupt.is_set():
                    raise _Interrupted() from problem
                failures = 1 if self._part_size() > before else failures + 1
                if failures >= self.settings.retry.attempts:
                    raise DownloadError(
                        f"{problem} Gave up after {failures} attempts in a row; "
                        f"{format_bytes(self._part_size())} are kept: press Resume to go on from there.",
                        "network",
                    ) from problem
                delay = self.settings.retry.delay(failures)
                log.info("Download of %s: %s Retrying in %.1f s.", plan.filename, problem, delay)
                self._set_message(f"{problem} Retrying in {delay:.0f} s (attempt {failures + 1} of {self.settings.retry.attempts}).")
                if self._interrupt.wait(delay):
                    raise _Interrupted() from problem

    def _transfer(self, plan: _Plan) -> None:
        offset = self._part_size()
        token = self.settings.token_provider()
        headers = build_hf_headers(token=token or False, headers={"Accept-Encoding": "identity"})
        if offset:
            headers["Range"] = f"bytes={offset}-"
        self._set_message("downloading" if not offset else f"resuming from {format_bytes(offset)}")
        try:
            with get_session().stream(
                "GET", plan.url, headers=headers, timeout=_TIMEOUT, follow_redirects=True
            ) as response:
                offset = self._check_response(response, plan, offset, bool(token))
                self._receive(response, plan, offset)
        except httpx2.TransportError as error:
            if self._interrupt.is_set():
                raise _Interrupted() from error
            raise _Retryable(_describe_transport_error(error)) from error

    def _check_response(self, response: httpx2.Response, plan: _Plan, offset: int, has_token: bool) -> int:
        """Decide from the status where the body starts; returns the offset it is written at."""
        status = response.status_code
        if status == 416 and offset:
            log.warning("The server refused to resume %s at %d; starting over", plan.filename, offset)
            self._start_over()
            raise _Retryable("The server could not resume the download; starting over.")
        if status >= 400:
            response.read()
            if status in (408, 429) or status >= 500:
                raise _Retryable(f"The server answered {status} ({response.reason_phrase}).")
            raise self._http_error(response, has_token)
        if offset and status == 200:
            log.warning("The server ignored the Range request for %s; downloading from the start", plan.filename)
            self._start_over()
            self._set_message("the server cannot resume downloads; downloading from the start")
            offset = 0
        elif status == 206:
            start, total = _parse_content_range(response.headers.get("Content-Range", ""))
            if start != offset:
                self._start_over()
                raise _Retryable(f"The server resumed at byte {start} instead of {offset}; starting over.")
            if total is not None and total != plan.expected_size:
                self._size_mismatch(plan, total)
        length = response.headers.get("Content-Length")
        if length is not None and length.isdigit() and offset + int(length) != plan.expected_size:
            self._size_mismatch(plan, offset + int(length))
        return offset

    def _receive(self, response: httpx2.Response, plan: _Plan, offset: int) -> None:
        part = self._part_path()
        assert self._hasher is not None
        try:
            # Unbuffered: the file's size on disk is always the number of bytes hashed, which is
            # what a resume after a crash relies on.
            with part.open("ab", buffering=0) as handle:
                for chunk in response.iter_bytes():
                    if offset + len(chunk) > plan.expected_size:
                        handle.close()
                        self._size_mismatch(plan, offset + len(chunk))
                    _write_all(handle, chunk)  # a chunk that arrived is kept, even when pausing
                    self._hasher.update(chunk)
                    offset += len(chunk)
                    self._hashed = offset
                    self._progress(offset)
                    if self._interrupt.is_set():
                        os.fsync(handle.fileno())
                        raise _Interrupted()
        except OSError as error:
            raise DownloadError(
                describe_os_error(error, part.parent) + f" {format_bytes(self._part_size())} are kept; press Resume after fixing it.",
                "disk full" if error.errno == errno.ENOSPC else "file system",
            ) from error
        if offset < plan.expected_size:
            raise _Retryable(f"The connection closed after {format_bytes(offset)} of {format_bytes(plan.expected_size)}.")

    def _verify_and_install(self, plan: _Plan) -> None:
        assert self._hasher is not None
        self._set(JobState.VERIFYING, "checking SHA-256")
        size = self._part_size()
        if size != plan.expected_size:
            self._discard_partial()
            raise DownloadError(
                f"{plan.filename} has {size} bytes instead of {plan.expected_size}; the download was deleted. "
                "Press Retry to download it again.",
                "size mismatch",
                resumable=False,
            )
        actual = self._hasher.hexdigest()
        if actual != plan.expected_sha256:
            log.error("SHA-256 mismatch for %s: expected %s, got %s", plan.filename, plan.expected_sha256, actual)
            self._discard_partial()
            raise DownloadError(
                f"{plan.filename} arrived damaged: its SHA-256 is {actual[:12]}…, the Hub says {plan.expected_sha256[:12]}…. "
                "The file was deleted and not installed; press Retry to download it again.",
                "hash mismatch",
                resumable=False,
            )
        models = self.settings.paths.models
        destination = models / plan.destination
        try:
            destination.parent.mkdir(parents=True, exist_ok=True)
            _atomic_move(self._part_path(), destination)
        except OSError as error:
            raise DownloadError(describe_os_error(error, destination.parent), "not writable") from error
        VerifiedIndex(models).record(
            destination,
            actual,
            reference="hub",
            source={"repo_id": plan.repo_id, "filename": plan.filename, "commit": plan.commit or "", "url": plan.url},
        )
        self._sidecar_path().unlink(missing_ok=True)
        log.info("Installed %s (SHA-256 %s) at %s", plan.filename, actual, destination)
        with self._lock:
            self.destination = destination
            self._set(JobState.DONE, f"installed and verified (SHA-256 {actual[:12]}…)")

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
        return DownloadError(hub_error.message, hub_error.kind.value, resumable=hub_error.kind is not HubErrorKind.NOT_FOUND)

    def _size_mismatch(self, plan: _Plan, served: int) -> None:
        self._discard_partial()
        raise DownloadError(
            f"{plan.filename}: the server sends {served} bytes but the Hub lists {plan.expected_size}; "
            "the download was deleted. Refresh the repository and try again.",
            "size mismatch",
            resumable=False,
        )

    def _start_over(self) -> None:
        self._part_path().unlink(missing_ok=True)
        self._hasher = hashlib.sha256()
        self._hashed = 0
        with self._lock:
            self.downloaded = 0
            self._samples.clear()

    def _discard_partial(self) -> None:
        self._part_path().unlink(missing_ok=True)
        self._sidecar_path().unlink(missing_ok=True)
        self._hasher = None
        self._hashed = 0
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
            self.resumable = error.resumable
            if not error.resumable:
                self._discard_partial()
            self._set(JobState.FAILED, error.message)

    def _ensure_folders(self, paths: AppPaths) -> None:
        for folder in (paths.models, paths.downloads):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise DownloadError(describe_os_error(error, folder), "not writable") from error
            if not folder.is_dir():
                raise DownloadError(describe_os_error(OSError(errno.ENOTDIR, "not a folder"), folder), "not writable")

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

    def _part_size(self) -> int:
        try:
            return self._part_path().stat().st_size
        except FileNotFoundError:
            return 0


class DownloadManager:
    """The queue: runs up to `max_parallel` jobs at a time, each on its own thread."""

    def __init__(
        self,
        paths: AppPaths | None = None,
        *,
        endpoint: str | None = None,
        token_provider: Callable[[], str | None] = lambda: None,
        retry: RetryPolicy | None = None,
        free_space: FreeSpace = disk_free,
        max_parallel: int = 2,
    ) -> None:
        self.settings = DownloadSettings(
            paths=paths or app_paths(),
            endpoint=endpoint,
            token_provider=token_provider,
            retry=retry or RetryPolicy(),
            free_space=free_space,
        )
        self.max_parallel = max_parallel
        self._jobs: list[DownloadJob] = []
        self._threads: dict[str, threading.Thread] = {}
        self._lock = threading.RLock()
        self._closed = False

    def enqueue(self, request: DownloadRequest) -> DownloadJob:
        """Queue a download; the same file already in the queue is returned (and resumed) instead."""
        with self._lock:
            for job in self._jobs:
                if job.request.key == request.key and not job.state.finished:
                    if job.state is JobState.PAUSED:
                        self.resume(job.id)
                    return job
            job = DownloadJob(request, self.settings)
            self._jobs.append(job)
            self._pump()
            return job

    def restore(self) -> list[DownloadJob]:
        """Paused jobs for the partial downloads a previous run left behind."""
        restored: list[DownloadJob] = []
        folder = self.settings.paths.downloads
        if not folder.is_dir():
            return restored
        with self._lock:
            known = {job.request.key for job in self._jobs}
            for sidecar in sorted(folder.glob("*.json")):
                plan = read_sidecar(sidecar)
                if plan is None:
                    continue
                request = DownloadRequest(plan.repo_id, plan.filename, plan.revision, plan.expected_sha256, plan.expected_size)
                if request.key in known:
                    continue
                job = DownloadJob(request, self.settings, plan=plan)
                self._jobs.append(job)
                restored.append(job)
        return restored

    def jobs(self) -> list[DownloadJob]:
        with self._lock:
            return list(self._jobs)

    def job(self, job_id: str) -> DownloadJob:
        with self._lock:
            for job in self._jobs:
                if job.id == job_id:
                    return job
        raise KeyError(job_id)

    def snapshots(self) -> list[JobSnapshot]:
        return [job.snapshot() for job in self.jobs()]

    def pause(self, job_id: str) -> None:
        self.job(job_id).pause()

    def resume(self, job_id: str) -> None:
        """Resume a paused job, or retry a failed one (from its bytes on disk, or afresh if none are kept)."""
        with self._lock:
            job = self.job(job_id)
            if job.state not in (JobState.PAUSED, JobState.FAILED):
                return
            job.requeue()
            self._pump()

    def cancel(self, job_id: str) -> None:
        self.job(job_id).cancel()

    def remove_finished(self) -> None:
        with self._lock:
            self._jobs = [job for job in self._jobs if not job.state.finished]

    def active(self) -> bool:
        with self._lock:
            return any(thread.is_alive() for thread in self._threads.values())

    def shutdown(self, timeout: float = 10.0) -> bool:
        """Pause everything and wait for the threads; partial files stay for the next run."""
        with self._lock:
            self._closed = True
            for job in self._jobs:
                job.pause()
            threads = list(self._threads.values())
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in threads)

    def _pump(self) -> None:
        with self._lock:
            if self._closed:
                return
            running = sum(1 for thread in self._threads.values() if thread.is_alive())
            for job in self._jobs:
                if running >= self.max_parallel:
                    break
                if not self._is_running(job) and job._try_start():
                    thread = threading.Thread(
                        target=self._run_job, args=(job,), name=f"download {job.request.filename}"
                    )
                    self._threads[job.id] = thread
                    thread.start()
                    running += 1

    def _run_job(self, job: DownloadJob) -> None:
        job.run()
        with self._lock:
            self._threads.pop(job.id, None)
            self._pump()

    def _is_running(self, job: DownloadJob) -> bool:
        thread = self._threads.get(job.id)
        return thread is not None and thread.is_alive()


def read_sidecar(path: Path) -> _Plan | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != SIDECAR_VERSION:
            return None
        plan = _Plan(**data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as error:
        log.warning("Ignoring the unreadable download record %s (%s)", path, error)
        return None
    return plan


def write_sidecar(path: Path, plan: _Plan) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(plan.__dict__, indent=1), encoding="utf-8")
    os.replace(temporary, path)


def _atomic_move(source: Path, destination: Path) -> None:
    """Rename into place; across file systems, copy to a temporary name beside the target first."""
    try:
        os.replace(source, destination)
        return
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
    temporary = destination.with_name(destination.name + ".installing")
    try:
        shutil.copyfile(source, temporary)
        os.replace(temporary, destination)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    source.unlink()


def _write_all(handle: "io.FileIO", data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = handle.write(view)
        view = view[written:]


def _same_device(a: Path, b: Path) -> bool:
    try:
        return a.stat().st_dev == b.stat().st_dev
    except OSError:
        return True


def _parse_content_range(value: str) -> tuple[int | None, int | None]:
    """`bytes 100-199/1000` -> (100, 1000); unknown parts are None."""
    try:
        unit, _, rest = value.strip().partition(" ")
        span, _, total = rest.partition("/")
        start = int(span.split("-", 1)[0])
        return start, (int(total) if total.strip().isdigit() else None)
    except ValueError:
        return None, None


def _describe_transport_error(error: httpx2.TransportError) -> str:
    if isinstance(error, httpx2.TimeoutException):
        return "The server stopped sending data."
    if isinstance(error, httpx2.ConnectError):
        return "Cannot connect to the Hub (offline?)."
    if isinstance(error, httpx2.RemoteProtocolError):
        return "The connection dropped mid-file."
    return f"The connection failed ({type(error).__name__})."

