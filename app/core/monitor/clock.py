"""The session's time axis: seconds since the monitor started, shared by samples and reply spans."""

from __future__ import annotations

import time
from collections.abc import Callable


class SessionClock:
    """Monotonic seconds since the session began, and the wall-clock time for the same moment."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> None:
        self._monotonic = monotonic
        self._wall = wall
        self._origin = monotonic()
        self._wall_origin = wall()

    def now(self) -> float:
        return self._monotonic() - self._origin

    def wall_at(self, t: float) -> float:
        """Seconds since the epoch at session time `t` (the wall clock may jump; the session axis does not)."""
        return self._wall_origin + t
