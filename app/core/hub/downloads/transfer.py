"""Download resume: HTTP Range requests that complete a partial file, retries with backoff, streaming SHA-256.

The partial file only grows by whole chunks that arrived, written unbuffered, so its size on
disk is always the number of bytes hashed; after a pause, a dropped connection or a crash
the next request asks for the rest (`Range: bytes=<size>-`). A server that ignores the
range, resumes elsewhere or refuses (416) makes the download start over; one that sends a
different size than the Hub lists fails it.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import logging
import os
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
from huggingface_hub.utils import build_hf_headers, get_session

from app.core.hub.downloads.errors import DownloadError, Interrupted, NextStep
from app.core.hub.downloads.sidecar import DownloadPlan
from app.core.models.hashing import Cancelled, sha256_file
from app.core.support.formatting import fill, format_bytes
from app.core.support.os_errors import describe_os_error
from app.core.support.reads import end_reads
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

# A stalled connection is dropped (and retried) after `read` seconds; pause and cancel end a stalled
# read at once (`Interrupt`).
_TIMEOUT = httpx2.Timeout(connect=15.0, read=20.0, write=20.0, pool=15.0)


class Interrupt(threading.Event):
    """Pause or cancel, asked from any thread. Set, it also ends a read that waits on a stalled
    connection (`end_reads`); otherwise that read would end only at the read timeout."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None

    def set(self) -> None:
        super().set()
        with self._lock:
            if self._socket is not None:
                end_reads(self._socket)

    @contextlib.contextmanager
    def cutting(self, response: httpx2.Response) -> Iterator[None]:
        """While the block runs, setting this also ends `response`'s reads (at once if it is set already)."""
        stream = response.extensions.get("network_stream")
        connection = stream.get_extra_info("socket") if stream is not None else None
        with self._lock:
            self._socket = connection
            if connection is not None and self.is_set():
                end_reads(connection)
        try:
            yield
        finally:
            with self._lock:
                self._socket = None


@dataclass(frozen=True)
class RetryPolicy:
    """Failed attempts in a row before giving up; the wait doubles from `base_delay_s` up to `max_delay_s`."""

    attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0

    def delay(self, failures: int) -> float:
        return min(self.max_delay_s, self.base_delay_s * (2 ** max(0, failures - 1)))


@dataclass(frozen=True)
class TransferHooks:
    """How a transfer reports to its job; all are called on the job's thread."""

    interrupt: Interrupt  # pause or cancel was requested: stop between chunks, or end a stalled read
    progress: Callable[[int], None]  # bytes in the partial file now
    message: Callable[[str], None]  # what is happening, for the job's status line
    restarted: Callable[[], None]  # the partial file was discarded: counting starts again at 0
    http_error: Callable[[httpx2.Response, bool], DownloadError]  # a refusal (4xx), worded for the user


class _Retryable(Exception):
    """A transient failure (dropped connection, 5xx, timeout): wait and try again."""


class RangeTransfer:
    """The partial file of one download, the requests that complete it, and the SHA-256 of its bytes.

    The hash lives as long as the transfer: a resume within the process hashes nothing
    again; after a restart the bytes on disk are hashed once.
    """

    def __init__(
        self, part: Path, retry: RetryPolicy, token_provider: Callable[[], str | None], hooks: TransferHooks
    ) -> None:
        self.part = part
        self._retry = retry
        self._token_provider = token_provider
        self._hooks = hooks
        self._hasher: hashlib._Hash | None = None
        self._hashed = 0  # bytes the hasher has seen (== part size while consistent)
        # Counters for tests and the bench: bytes hashed from disk on resume, attempts made.
        self.rehashed_bytes = 0
        self.attempts = 0

    def size(self) -> int:
        try:
            return self.part.stat().st_size
        except FileNotFoundError:
            return 0

    def sha256(self) -> str:
        assert self._hasher is not None
        return self._hasher.hexdigest()

    def forget(self) -> None:
        """The partial file is gone: the hash of its bytes is too."""
        self._hasher = None
        self._hashed = 0

    def hash_existing(self, plan: DownloadPlan) -> int:
        """Bring the hasher up to the bytes on disk (nothing to do after an in-process pause); returns their count."""
        size = self.size()
        if size > plan.expected_size:
            log.warning("%s is larger than the file it should become; starting over", self.part)
            self.part.unlink(missing_ok=True)
            size = 0
        if self._hasher is not None and self._hashed == size:
            return size
        self._hasher = hashlib.sha256()
        self._hashed = 0
        if size:
            self._hooks.message(f"checking the {format_bytes(size)} already downloaded")
            try:
                sha256_file(self.part, cancel=self._hooks.interrupt, hasher=self._hasher)
            except Cancelled as error:
                raise Interrupted() from error
            self.rehashed_bytes += size
            self._hashed = size
        return size

    def complete(self, plan: DownloadPlan) -> None:
        """Request the rest of the file until it is whole; transient failures are retried with backoff."""
        interrupt = self._hooks.interrupt
        failures = 0
        while self.size() < plan.expected_size:
            before = self.size()
            try:
                self.attempts += 1
                self._transfer(plan)
            except _Retryable as problem:
                if interrupt.is_set():
                    raise Interrupted() from problem
                failures = 1 if self.size() > before else failures + 1
                if failures >= self._retry.attempts:
                    raise DownloadError(
                        fill(
                            N_("{problem} Gave up after {failures} attempts in a row; {size} are kept."),
                            problem=problem,
                            failures=failures,
                            size=format_bytes(self.size()),
                        ),
                        "network",
                        next_step=NextStep.RESUME,
                    ) from problem
                delay = self._retry.delay(failures)
                log.info("Download of %s: %s Retrying in %.1f s.", plan.filename, problem, delay)
                self._hooks.message(
                    f"{problem} Retrying in {delay:.0f} s (attempt {failures + 1} of {self._retry.attempts})."
                )
                if interrupt.wait(delay):
                    raise Interrupted() from problem

    def _transfer(self, plan: DownloadPlan) -> None:
        offset = self.size()
        token = self._token_provider()
        headers = build_hf_headers(token=token or False, headers={"Accept-Encoding": "identity"})
        if offset:
            headers["Range"] = f"bytes={offset}-"
        self._hooks.message("downloading" if not offset else f"resuming from {format_bytes(offset)}")
        try:
            with get_session().stream(
                "GET", plan.url, headers=headers, timeout=_TIMEOUT, follow_redirects=True
            ) as response:
                offset = self._check_response(response, plan, offset, bool(token))
                with self._hooks.interrupt.cutting(response):
                    self._receive(response, plan, offset)
        except httpx2.TransportError as error:
            if self._hooks.interrupt.is_set():
                raise Interrupted() from error
            raise _Retryable(_describe_transport_error(error)) from error

    def _check_response(self, response: httpx2.Response, plan: DownloadPlan, offset: int, has_token: bool) -> int:
        """Decide from the status where the body starts; returns the offset it is written at."""
        status = response.status_code
        if status == 416 and offset:
            log.warning("The server refused to resume %s at %d; starting over", plan.filename, offset)
            self._start_over()
            raise _Retryable(N_("The server could not resume the download; starting over."))
        if status >= 400:
            response.read()
            if status in (408, 429) or status >= 500:
                raise _Retryable(
                    fill(
                        N_("The server answered {status} ({reason_phrase})."),
                        status=status,
                        reason_phrase=response.reason_phrase,
                    )
                )
            raise self._hooks.http_error(response, has_token)
        if offset and status == 200:
            log.warning("The server ignored the Range request for %s; downloading from the start", plan.filename)
            self._start_over()
            self._hooks.message("the server cannot resume downloads; downloading from the start")
            offset = 0
        elif status == 206:
            start, total = _parse_content_range(response.headers.get("Content-Range", ""))
            if start != offset:
                self._start_over()
                raise _Retryable(
                    fill(
                        N_("The server resumed at byte {start} instead of {offset}; starting over."),
                        start=start,
                        offset=offset,
                    )
                )
            if total is not None and total != plan.expected_size:
                raise _size_mismatch(plan, total)
        length = response.headers.get("Content-Length")
        if length is not None and length.isdigit() and offset + int(length) != plan.expected_size:
            raise _size_mismatch(plan, offset + int(length))
        return offset

    def _receive(self, response: httpx2.Response, plan: DownloadPlan, offset: int) -> None:
        assert self._hasher is not None
        interrupt = self._hooks.interrupt
        try:
            # Unbuffered: the file's size on disk is always the number of bytes hashed, which is
            # what a resume after a crash relies on.
            with self.part.open("ab", buffering=0) as handle:
                for chunk in response.iter_bytes():
                    if offset + len(chunk) > plan.expected_size:
                        raise _size_mismatch(plan, offset + len(chunk))
                    _write_all(handle, chunk)  # a chunk that arrived is kept, even when pausing
                    self._hasher.update(chunk)
                    offset += len(chunk)
                    self._hashed = offset
                    self._hooks.progress(offset)
                    if interrupt.is_set():
                        os.fsync(handle.fileno())
                        raise Interrupted()
        except OSError as error:
            raise DownloadError(
                describe_os_error(error, self.part.parent)
                + fill(N_(" {size} are kept."), size=format_bytes(self.size())),
                "disk full" if error.errno == errno.ENOSPC else "file system",
                next_step=NextStep.RESUME,
            ) from error
        if offset < plan.expected_size:
            raise _Retryable(
                fill(
                    N_("The connection closed after {offset} of {expected_size}."),
                    offset=format_bytes(offset),
                    expected_size=format_bytes(plan.expected_size),
                )
            )

    def _start_over(self) -> None:
        self.part.unlink(missing_ok=True)
        self._hasher = hashlib.sha256()
        self._hashed = 0
        self._hooks.restarted()


def _size_mismatch(plan: DownloadPlan, served: int) -> DownloadError:
    """Not resumable: the job deletes the download."""
    return DownloadError(
        fill(
            N_("{file}: the server sends {served} bytes but the Hub lists {expected}; the download was deleted."),
            file=plan.filename,
            served=served,
            expected=plan.expected_size,
        ),
        "size mismatch",
        resumable=False,
        next_step=NextStep.REFRESH,
    )


def _write_all(handle: io.FileIO, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = handle.write(view)
        view = view[written:]


def _parse_content_range(value: str) -> tuple[int | None, int | None]:
    """`bytes 100-199/1000` -> (100, 1000); unknown parts are None."""
    try:
        _unit, _, rest = value.strip().partition(" ")
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
