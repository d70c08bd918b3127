"""The processes that make up Glassbox: the window's own process and its children (the engine).

The model runs in a child process (app.core.backends.local), so what "this app" holds in
VRAM and RAM, and how much CPU it uses, is the sum over the window's process and its
descendants. Listing children scans the process table (every /proc entry on Linux), which
costs about a millisecond per hundred processes, so the list is refreshed every few
seconds rather than on every poll, and at once when a listed child has gone.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

import psutil

log = logging.getLogger(__name__)

CHILDREN_REFRESH_S = 5.0


class ProcessTree:
    """A process and its descendants, as a list of pids that stays cheap to ask for."""

    def __init__(
        self,
        pid: int | None = None,
        refresh_s: float = CHILDREN_REFRESH_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pid = os.getpid() if pid is None else pid
        self._refresh_s = refresh_s
        self._clock = clock
        self._children: tuple[int, ...] = ()
        self._listed_at: float | None = None

    def pids(self) -> tuple[int, ...]:
        """This process first, then its descendants (the engine process among them)."""
        now = self._clock()
        if self._listed_at is None or now - self._listed_at >= self._refresh_s or not self._children_alive():
            self._children = self._list_children()
            self._listed_at = now
        return (self.pid, *self._children)

    def children(self) -> tuple[int, ...]:
        return self.pids()[1:]

    def forget(self, pid: int) -> None:
        """A child that has gone (a read said so): list the children again at the next ask."""
        if pid in self._children:
            self._listed_at = None

    def _children_alive(self) -> bool:
        return all(psutil.pid_exists(pid) for pid in self._children)

    def _list_children(self) -> tuple[int, ...]:
        try:
            return tuple(child.pid for child in psutil.Process(self.pid).children(recursive=True))
        except (psutil.Error, OSError) as error:
            log.debug("Cannot list the children of process %d: %s", self.pid, error)
            return ()
