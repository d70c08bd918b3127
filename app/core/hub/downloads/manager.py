"""The download queue: up to `max_parallel` jobs at a time, each on its own thread.

Partial downloads a previous run left behind come back as paused jobs (`restore`);
`shutdown` pauses everything and keeps the partial files for the next run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.core.hub.downloads.disk import FreeSpace, disk_free
from app.core.hub.downloads.job import (
    DownloadJob,
    DownloadRequest,
    DownloadSettings,
    JobSnapshot,
    JobState,
)
from app.core.hub.downloads.sidecar import read_sidecar
from app.core.hub.downloads.transfer import RetryPolicy
from app.core.paths import AppPaths, app_paths


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
                request = DownloadRequest(
                    plan.repo_id, plan.filename, plan.revision, plan.expected_sha256, plan.expected_size
                )
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
                if not self._is_running(job) and job.try_start():
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
