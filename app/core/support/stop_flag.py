"""A stop or cancel flag that wakes a thread which is waiting for something else.

A thread that waits for the engine's next event and must also notice Stop would otherwise
look at a plain `threading.Event` every few milliseconds: 200 wake-ups a second for the
length of every reply, each one CPU time taken from llama.cpp on a machine with few cores.
A `StopFlag` is set like any Event (from any thread) and, as it is set, calls the wakers
registered with `waking()`, so the waiter sleeps until its event or the flag comes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class StopFlag(threading.Event):
    """A `threading.Event` whose `set()` also calls the wakers registered at that moment."""

    def __init__(self) -> None:
        super().__init__()
        self._wakers_lock = threading.Lock()
        self._wakers: list[Callable[[], None]] = []

    def set(self) -> None:
        super().set()
        with self._wakers_lock:
            wakers = tuple(self._wakers)
        for wake in wakers:
            wake()

    @contextmanager
    def waking(self, wake: Callable[[], None]) -> Iterator[None]:
        """Inside the block, `set()` calls `wake` on the setter's thread (so it must be quick and
        thread-safe: putting a marker into a queue, say)."""
        with self._wakers_lock:
            self._wakers.append(wake)
        try:
            yield
        finally:
            with self._wakers_lock:
                self._wakers.remove(wake)
