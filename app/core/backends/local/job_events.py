"""The engine's events, each handed to the caller whose job it belongs to, for callers on several threads at once.

With parallel slots the server's workers wait for the events of their own replies at the
same time, and the engine link has one queue for all of them. One caller at a time reads the
link; what it reads for another job goes into that job's box, and whoever stops reading
wakes the others, so one of them reads on. A crash of the engine reaches every waiting job.
"""

from __future__ import annotations

import queue
import threading
import time

from app.core.backends.local import wire
from app.core.backends.local.process import EngineCrashed, EngineLink


class _LookAgain:
    """Put into a box to end its owner's wait: the link may be free to read, or its stop flag set."""


LOOK_AGAIN = _LookAgain()


class JobEvents:
    """Boxes of events by job id over one `EngineLink`; any thread may call it."""

    def __init__(self, link: EngineLink) -> None:
        self._link = link
        self._reader = threading.Lock()  # held by the caller reading the link now
        self._lock = threading.Lock()
        self._boxes: dict[int, queue.Queue[object]] = {}

    def open(self, job_id: int) -> None:
        with self._lock:
            self._boxes[job_id] = queue.Queue()

    def close(self, job_id: int) -> None:
        """The job's caller reads no more: later events of the job are dropped."""
        with self._lock:
            self._boxes.pop(job_id, None)

    def wake(self, job_id: int) -> None:
        """End the job's wait now (from any thread), so its caller looks at its stop flag."""
        with self._lock:
            box = self._boxes.get(job_id)
        if box is not None:
            box.put(LOOK_AGAIN)
        self._link.wake()

    def next(self, job_id: int, timeout: float) -> wire.Event | None:
        """The job's next event; None when none came within `timeout` or the wait was woken.
        Raises EngineCrashed when the engine died."""
        with self._lock:
            box = self._boxes[job_id]
        deadline = time.monotonic() + timeout
        while True:
            try:
                item = box.get_nowait()
            except queue.Empty:
                item = None
            if item is None and self._reader.acquire(blocking=False):
                try:
                    item = self._read(job_id, box, deadline)
                finally:
                    self._reader.release()
                    self._others_look_again(job_id)
            elif item is None:
                try:
                    item = box.get(timeout=max(deadline - time.monotonic(), 0.0))
                except queue.Empty:
                    return None
            if isinstance(item, EngineCrashed):
                raise item
            if item is not None and not isinstance(item, _LookAgain):
                return item  # type: ignore[return-value]
            if isinstance(item, _LookAgain) and time.monotonic() < deadline:
                continue
            return None

    def _read(self, job_id: int, box: queue.Queue[object], deadline: float) -> object:
        """Read the link (holding the reader lock) until an event of `job_id` or the deadline; the events of
        other jobs go to their boxes. None at the deadline or when the link was woken."""
        try:
            return box.get_nowait()  # it came while the lock was taken
        except queue.Empty:
            pass
        while True:
            try:
                event = self._link.next_event(max(deadline - time.monotonic(), 0.0))
            except EngineCrashed as crash:
                with self._lock:
                    boxes = list(self._boxes.values())
                for waiting in boxes:
                    waiting.put(crash)
                raise
            if event is None:
                return None
            owner = getattr(event, "job", job_id)
            if owner == job_id:
                return event
            with self._lock:
                other = self._boxes.get(owner)
            if other is not None:
                other.put(event)  # else a late event of a job its caller gave up on
            if time.monotonic() >= deadline:
                return None

    def _others_look_again(self, job_id: int) -> None:
        with self._lock:
            boxes = [box for owner, box in self._boxes.items() if owner != job_id]
        for box in boxes:
            box.put(LOOK_AGAIN)
