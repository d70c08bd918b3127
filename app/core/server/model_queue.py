"""One owner, fair sharing: the jobs for the model run on its worker threads, in arrival order.

The model (a LocalBackend) is called by those threads only: one, or with `slots` N (the
engine's parallel slots), N workers, each taking the next job as soon as its last one ended,
so N replies are written at once. Jobs wait in a FIFO queue; the queue is bounded, and a job
that finds every slot busy and the queue full is refused at once with an estimate of when to
try again (the API server answers 503 with Retry-After). The window's own jobs (`bounded=False`)
are never refused and wait ahead of the API requests, behind the running ones only: with parallel
slots, the window's chat takes the first slot that frees. A waiting job whose `cancelled`
event is set (its client went away) is skipped, not run; a running one watches the same
event between tokens. `close()` cancels what waits, lets the running job end and joins the
thread, so no thread is left running.

With an `EngineKeeper` (a headless server's), the workers also let the keeper look at the
engine whenever no job runs: before a job that runs alone, after the last running job, and
every `IDLE_CHECK_S` while idle. If the engine died, the keeper restarts it and reloads the
model there, and no job starts meanwhile.
"""

from __future__ import annotations

import logging
import math
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.backends.local.backend import LocalBackend
from app.core.server.engine_keeper import EngineKeeper

log = logging.getLogger(__name__)

RECENT_JOBS = 8  # how many finished jobs the Retry-After estimate averages
MAX_RETRY_AFTER_S = 60
IDLE_CHECK_S = 1.0  # how often the keeper looks at an idle engine


class QueueFull(Exception):
    """The queue holds as many waiting jobs as it may; `retry_after_s` estimates when one leaves."""

    def __init__(self, waiting: int, retry_after_s: int) -> None:
        super().__init__(f"{waiting} requests are already waiting for the model; try again in {retry_after_s} s.")
        self.waiting = waiting
        self.retry_after_s = retry_after_s


class QueueClosed(Exception):
    """The queue no longer takes jobs (the server is stopping)."""


@dataclass
class QueuedJob:
    run: Callable[[LocalBackend], None]  # runs on the worker thread, with the model
    cancelled: threading.Event = field(default_factory=threading.Event)
    skipped: Callable[[], None] = lambda: None  # called (on the worker or the closer) instead of run


class ModelQueue:
    """The threads that own `backend`: `slots` jobs run at once, `limit` more may wait behind them."""

    def __init__(
        self,
        backend: LocalBackend,
        limit: int,
        name: str = "model-queue",
        keeper: EngineKeeper | None = None,
        slots: int = 1,
    ) -> None:
        self.backend = backend  # only jobs (and the keeper) touch it; others may read its `model` and `config`
        self.keeper = keeper
        self.slots = max(1, slots)
        self._limit = limit
        self._waiting: deque[QueuedJob] = deque()
        self._first: deque[QueuedJob] = deque()  # the window's own jobs: they go before `_waiting`
        self._running: set[int] = set()  # ids of the running jobs' objects
        self._tending = False
        self._durations: deque[float] = deque(maxlen=RECENT_JOBS)
        self._changed = threading.Condition()
        self._closed = False
        self._threads = [
            threading.Thread(target=self._work, name=name if self.slots == 1 else f"{name}-{index}")
            for index in range(self.slots)
        ]
        for thread in self._threads:
            thread.start()

    @property
    def waiting(self) -> int:
        with self._changed:
            return len(self._first) + len(self._waiting)

    @property
    def busy(self) -> bool:
        with self._changed:
            return bool(self._running)

    @property
    def running(self) -> int:
        """How many jobs run now (at most `slots`)."""
        with self._changed:
            return len(self._running)

    def submit(self, job: QueuedJob, bounded: bool = True) -> int:
        """Queue `job`; returns how many jobs are ahead of it. Raises QueueFull or QueueClosed.

        `bounded=False` is for the window's own jobs (its chat): never refused, and ahead of every waiting
        API request, behind the window's jobs already waiting.
        """
        with self._changed:
            if self._closed:
                raise QueueClosed("The server is stopping.")
            if not bounded:
                ahead = len(self._first) + len(self._running)
                self._first.append(job)
                self._changed.notify_all()
                return ahead
            ahead = len(self._first) + len(self._waiting) + len(self._running)
            # Jobs a worker is about to take count as running: full means every slot busy and `limit` waiting.
            if ahead >= self.slots + self._limit:
                raise QueueFull(ahead - self.slots, self._retry_after(ahead))
            self._waiting.append(job)
            self._changed.notify_all()
            return ahead

    def close(self) -> None:
        """Skip every waiting job, let the running one end (its owner sets its stop), join the thread."""
        with self._changed:
            self._closed = True
            dropped = [*self._first, *self._waiting]
            self._first.clear()
            self._waiting.clear()
            self._changed.notify_all()
        if self.keeper is not None:
            self.keeper.close()  # a restart in progress ends now
        for job in dropped:
            job.cancelled.set()
            job.skipped()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join()

    def _retry_after(self, ahead: int) -> int:
        typical = statistics.mean(self._durations) if self._durations else 1.0
        return max(1, min(MAX_RETRY_AFTER_S, math.ceil(typical * ahead / self.slots)))

    def _work(self) -> None:
        while True:
            with self._changed:
                if not self._first and not self._waiting and not self._closed:
                    self._changed.wait(IDLE_CHECK_S if self.keeper is not None else None)
                while self._tending and not self._closed:
                    self._changed.wait()
                if self._closed and not self._first and not self._waiting:
                    return
                job = self._next_job()
                if job is not None:
                    self._running.add(id(job))
            if job is not None:
                self._tend(job)  # an engine that died while idle is back before the job runs (if it runs alone)
                self._run(job)
            self._tend()  # after a reply whose engine died, or on an idle look

    def _next_job(self) -> QueuedJob | None:
        """The window's next job, else the next API request's (called with the lock held)."""
        if self._first:
            return self._first.popleft()
        return self._waiting.popleft() if self._waiting else None

    def _run(self, job: QueuedJob) -> None:
        try:
            if job.cancelled.is_set():
                job.skipped()
            else:
                started = time.perf_counter()
                job.run(self.backend)
                self._durations.append(time.perf_counter() - started)
        except Exception:
            log.exception("A job for the model failed")
        finally:
            with self._changed:
                self._running.discard(id(job))
                self._changed.notify_all()

    def _tend(self, starting: QueuedJob | None = None) -> None:
        """Let the keeper look at the engine when no job but `starting` runs (and none starts meanwhile)."""
        if self.keeper is None:
            return
        with self._changed:
            if self._tending or self._running - {id(starting)}:
                return
            self._tending = True
        try:
            self.keeper.tend(self.backend)
        except Exception:
            log.exception("Looking after the engine failed")
        finally:
            with self._changed:
                self._tending = False
                self._changed.notify_all()
