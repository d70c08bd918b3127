"""A headless server's model kept loaded: when the engine process dies, restart it and reload the model.

The window offers Reload after a crash and lets the user decide; `glassbox serve` has nobody to
ask, so (as Ollama and LM Studio's server do) it brings the model back by itself. The keeper
runs on the model queue's thread, between jobs (it is the backend's one owner, so no job runs
meanwhile): after a reply whose engine died, and every second or so while idle, it looks
whether the engine is gone and, if so, waits a back-off (1 s, 2 s, 4 s … up to a cap, growing
with the failures in the recent window), reloads the same model, and tries again until the model
is back or the server stops. Many failures within the window are a crash loop: said in the log
and in `health()`, which /health and the refusals (503 with Retry-After) read from any thread.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import EngineCrashed
from app.core.types.errors import LoadCancelled
from app.core.types.load import LoadConfig

log = logging.getLogger(__name__)

LAST_ERROR_CHARS = 500  # the crash message quotes llama.cpp's last lines; /health shows this much


class EngineState(StrEnum):
    RUNNING = "running"
    RESTARTING = "restarting"
    CRASH_LOOP = "crash loop"  # restarting, after too many failures within the window


@dataclass(frozen=True)
class RestartPolicy:
    first_delay_s: float = 1.0
    max_delay_s: float = 30.0
    crash_loop_failures: int = 5  # engine deaths and failed reloads, within…
    window_s: float = 300.0

    def delay_s(self, recent_failures: int) -> float:
        """The wait before the next reload: doubling with each recent failure, capped."""
        return float(min(self.first_delay_s * 2 ** max(recent_failures - 1, 0), self.max_delay_s))


@dataclass(frozen=True)
class EngineHealth:
    state: EngineState
    restarts: int  # reloads begun since the server started
    recent_failures: int  # engine deaths and failed reloads within the policy's window
    last_error: str  # "" until the engine first fails
    retry_after_s: int  # about when the model should be back, if it is not (at least 1)

    def as_json(self) -> dict[str, Any]:
        return {
            "state": str(self.state),
            "restarts": self.restarts,
            "recent_failures": self.recent_failures,
            "last_error": self.last_error or None,
        }


class EngineKeeper:
    """Owns the restart state; `tend` runs on the model queue's thread, the rest from anywhere."""

    def __init__(
        self,
        config: LoadConfig,
        policy: RestartPolicy | None = None,
        on_change: Callable[[EngineHealth], None] = lambda _health: None,
    ) -> None:
        self.config = config  # what is reloaded: the load the server was started with
        self._policy = policy or RestartPolicy()
        self._on_change = on_change
        self._lock = threading.Lock()
        self._state = EngineState.RUNNING
        self._restarts = 0
        self._failures: deque[float] = deque()  # time.monotonic() of each failure within the window
        self._last_error = ""
        self._next_try_at = 0.0  # when the next reload begins
        self._load_s = 0.0  # how long the last load took, for Retry-After
        self._closed = threading.Event()

    def health(self) -> EngineHealth:
        with self._lock:
            now = time.monotonic()
            recent = self._recent(now)
            retry = max(1, math.ceil(max(self._next_try_at - now, 0.0) + self._load_s))
            return EngineHealth(self._state, self._restarts, recent, self._last_error, retry)

    def tend(self, backend: LocalBackend) -> None:
        """On the model queue's thread: if the engine died, restart it and reload the model, with back-off,
        until the model is back or `close` is called."""
        with contextlib.suppress(EngineCrashed):  # it died while idle: `crash` says so below
            backend.check_engine()
        if backend.is_loaded or backend.crash is None or self._closed.is_set():
            return
        error = str(backend.crash)
        while not self._closed.is_set():
            delay = self._failed(error)
            if self._closed.wait(delay):
                return
            with self._lock:
                self._restarts += 1
            started = time.monotonic()
            try:
                backend.load(self.config, cancel=self._closed)
            except LoadCancelled:
                return
            except Exception as failure:  # ModelFileError, EngineError, or anything else: each is tried again
                error = f"The model could not be loaded again: {failure}"
                continue
            self._reloaded(time.monotonic() - started)
            return

    def close(self) -> None:
        """End a back-off wait or a reload now (from any thread): the server is stopping."""
        self._closed.set()

    def _failed(self, error: str) -> float:
        """Count a failure, say what happens next, and return the back-off before the next reload."""
        with self._lock:
            now = time.monotonic()
            self._failures.append(now)
            recent = self._recent(now)
            delay = self._policy.delay_s(recent)
            self._next_try_at = now + delay
            self._last_error = error[:LAST_ERROR_CHARS]
            looping = recent >= self._policy.crash_loop_failures
            began_looping = looping and self._state is not EngineState.CRASH_LOOP
            self._state = EngineState.CRASH_LOOP if looping else EngineState.RESTARTING
        if began_looping:
            log.error(
                "The engine is in a crash loop: %d failures within %.0f s; still restarting, every %.0f s now. "
                "Last error: %s",
                recent,
                self._policy.window_s,
                delay,
                error,
            )
        else:
            log.warning("The engine stopped (%s); reloading %s in %.0f s", error, self.config.model_path.name, delay)
        self._changed()
        return delay

    def _reloaded(self, load_s: float) -> None:
        with self._lock:
            self._state = EngineState.RUNNING
            self._load_s = load_s
            restarts = self._restarts
        log.info(
            "The engine was restarted and %s reloaded in %.1f s (restart %d)",
            self.config.model_path.name,
            load_s,
            restarts,
        )
        self._changed()

    def _changed(self) -> None:
        try:
            self._on_change(self.health())
        except Exception:
            log.exception("A listener to the engine's restarts failed")

    def _recent(self, now: float) -> int:
        while self._failures and self._failures[0] < now - self._policy.window_s:
            self._failures.popleft()
        return len(self._failures)
