"""Items handed on in batches: the first at once, then at most once per interval.

Streamed text crosses threads and processes this way (the engine process's pipe, the LLM
worker's signal to the GUI thread): each message wakes a thread, and on a machine with few
cores every wake-up is time taken from llama.cpp. The first item goes at once, so the time
to the first token is not held back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class TimedBatch(Generic[T]):
    """Collects items and sends them together at most once every `interval_s`; `flush()` sends the rest."""

    def __init__(
        self, interval_s: float, send: Callable[[list[T]], object], clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self._interval_s = interval_s
        self._send = send
        self._clock = clock
        self._items: list[T] = []
        self._sent_at: float | None = None

    def add(self, item: T) -> None:
        self._items.append(item)
        now = self._clock()
        if self._sent_at is None or now - self._sent_at >= self._interval_s:
            self._sent_at = now
            self.flush()

    def flush(self) -> None:
        if self._items:
            items, self._items = self._items, []
            self._send(items)
