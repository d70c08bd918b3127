"""The model's queue: one thread, first come first served, a bound, cancelled jobs skipped, a clean close."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.server.model_queue import ModelQueue, QueueClosed, QueuedJob, QueueFull

WAIT_S = 30.0


@pytest.fixture
def backend() -> LocalBackend:
    return LocalBackend(link=InProcessEngine())  # no model: the jobs here only record that they ran


@pytest.fixture
def queue(backend: LocalBackend) -> Iterator[ModelQueue]:
    model_queue = ModelQueue(backend, limit=2)
    yield model_queue
    model_queue.close()


def blocking_job(ran: list[str], name: str, release: threading.Event, started: threading.Event) -> QueuedJob:
    def run(_backend: LocalBackend) -> None:
        started.set()
        assert release.wait(WAIT_S)
        ran.append(name)

    return QueuedJob(run)


def recording_job(ran: list[str], name: str) -> QueuedJob:
    return QueuedJob(lambda _backend: ran.append(name))


def test_jobs_run_one_at_a_time_in_arrival_order_on_the_queues_thread(queue: ModelQueue, backend: LocalBackend) -> None:
    ran: list[str] = []
    seen: list[tuple[str, bool]] = []
    last_done = threading.Event()
    release, started = threading.Event(), threading.Event()

    def last(given: LocalBackend) -> None:
        seen.append((threading.current_thread().name, given is backend))
        ran.append("third")
        last_done.set()

    queue.submit(blocking_job(ran, "first", release, started))
    assert started.wait(WAIT_S) and queue.busy
    assert queue.submit(recording_job(ran, "second")) == 1  # jobs ahead of it
    assert queue.submit(QueuedJob(last)) == 2
    release.set()
    assert last_done.wait(WAIT_S)
    assert ran == ["first", "second", "third"]
    assert seen == [("model-queue", True)]


def test_beyond_the_bound_a_job_is_refused_with_when_to_retry(queue: ModelQueue) -> None:
    ran: list[str] = []
    release, started = threading.Event(), threading.Event()
    queue.submit(blocking_job(ran, "running", release, started))
    assert started.wait(WAIT_S)
    queue.submit(recording_job(ran, "waits 1"))
    queue.submit(recording_job(ran, "waits 2"))
    with pytest.raises(QueueFull) as full:
        queue.submit(recording_job(ran, "refused"))
    assert full.value.waiting == 2 and full.value.retry_after_s >= 1
    release.set()


def test_a_cancelled_waiting_job_is_skipped_not_run(queue: ModelQueue) -> None:
    ran: list[str] = []
    skipped = threading.Event()
    release, started = threading.Event(), threading.Event()
    queue.submit(blocking_job(ran, "running", release, started))
    assert started.wait(WAIT_S)
    gone = QueuedJob(lambda _backend: ran.append("gone"), skipped=skipped.set)
    queue.submit(gone)
    gone.cancelled.set()
    release.set()
    assert skipped.wait(WAIT_S)
    assert ran == ["running"]


@pytest.mark.expected_log("app.core.server.model_queue", logging.ERROR, "A job for the model failed")
def test_a_failing_job_is_logged_and_the_next_one_runs(queue: ModelQueue) -> None:
    def fail(_backend: LocalBackend) -> None:
        raise RuntimeError("broken job")

    done = threading.Event()
    queue.submit(QueuedJob(fail))
    queue.submit(QueuedJob(lambda _backend: done.set()))
    assert done.wait(WAIT_S)


def test_closing_skips_what_waits_and_refuses_more(backend: LocalBackend) -> None:
    queue = ModelQueue(backend, limit=4)
    ran: list[str] = []
    skipped: list[str] = []
    release, started = threading.Event(), threading.Event()
    queue.submit(blocking_job(ran, "running", release, started))
    assert started.wait(WAIT_S)
    queue.submit(QueuedJob(lambda _backend: ran.append("waiting"), skipped=lambda: skipped.append("waiting")))
    closer = threading.Thread(target=queue.close)
    closer.start()
    release.set()
    closer.join()
    assert ran == ["running"] and skipped == ["waiting"]
    with pytest.raises(QueueClosed):
        queue.submit(recording_job(ran, "late"))


def test_with_slots_as_many_jobs_run_at_once_and_the_bound_counts_beyond_them(backend: LocalBackend) -> None:
    slotted = ModelQueue(backend, limit=1, slots=3)
    ran: list[str] = []
    release = threading.Event()
    started = [threading.Event() for _ in range(3)]
    try:
        for index, began in enumerate(started):
            slotted.submit(blocking_job(ran, f"slot {index}", release, began))
        assert all(began.wait(WAIT_S) for began in started)  # three at once, none waiting for another
        assert slotted.running == 3
        waited = threading.Event()
        slotted.submit(QueuedJob(lambda _backend: (ran.append("waits"), waited.set())))
        with pytest.raises(QueueFull) as full:
            slotted.submit(recording_job(ran, "refused"))
        assert full.value.waiting == 1
        release.set()
        assert waited.wait(WAIT_S)
    finally:
        release.set()
        slotted.close()
    assert sorted(ran) == ["slot 0", "slot 1", "slot 2", "waits"]


def test_the_windows_job_waits_ahead_of_the_api_requests_and_is_never_refused(queue: ModelQueue) -> None:
    ran: list[str] = []
    window_done = threading.Event()
    release, started = threading.Event(), threading.Event()
    queue.submit(blocking_job(ran, "running", release, started))
    assert started.wait(WAIT_S)
    queue.submit(recording_job(ran, "api 1"))
    queue.submit(recording_job(ran, "api 2"))  # the queue is full for API requests now
    assert queue.submit(QueuedJob(lambda _backend: (ran.append("window"), window_done.set())), bounded=False) == 1
    assert queue.submit(recording_job(ran, "window 2"), bounded=False) == 2  # behind the window's first job
    with pytest.raises(QueueFull):
        queue.submit(recording_job(ran, "api 3"))
    last = threading.Event()
    release.set()
    assert window_done.wait(WAIT_S)
    queue.submit(QueuedJob(lambda _backend: last.set()), bounded=False)
    assert last.wait(WAIT_S)
    assert ran == ["running", "window", "window 2", "api 1", "api 2"]


def test_closing_skips_the_windows_waiting_jobs_too(backend: LocalBackend) -> None:
    queue = ModelQueue(backend, limit=1)
    ran: list[str] = []
    skipped: list[str] = []
    release, started = threading.Event(), threading.Event()
    queue.submit(blocking_job(ran, "running", release, started))
    assert started.wait(WAIT_S)
    queue.submit(QueuedJob(lambda _backend: ran.append("window"), skipped=lambda: skipped.append("window")), False)
    closer = threading.Thread(target=queue.close)
    closer.start()
    release.set()
    closer.join()
    assert ran == ["running"] and skipped == ["window"] and queue.waiting == 0
