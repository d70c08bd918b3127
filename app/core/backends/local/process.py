"""The engine child process seen from the window: start it, send it jobs, read its events, end it.

`EngineProcess` and `InProcessEngine` are the two `EngineLink`s the local backend can use:
the first runs the engine in a child process (the default, so that llama.cpp dying takes
only the child down), the second in a thread of this process (for tests that swap the
engine for a fake). Both deliver the same events through a queue, read with a timeout so
the caller can watch its stop flag meanwhile.

When the child dies, `next_event` raises `EngineCrashed` with what a person should read:
the signal or exit code in words (`crash_report`) and the last lines the child wrote to
its stderr (where llama.cpp prints an assert's reason right before it aborts).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import os
import queue
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Protocol

from app.core.backends.local import host, wire
from app.core.backends.local.session import EngineSession
from app.core.inference.crash_report import describe_crash
from app.core.inference.engine import Engine
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError

log = logging.getLogger(__name__)

START_TIMEOUT_S = 120.0  # a cold start on a slow disk imports llama.cpp and numpy
SHUTDOWN_GRACE_S = 3.0  # for the child to free the model and exit on its own
TERMINATE_GRACE_S = 2.0  # after SIGTERM, before SIGKILL
STDERR_TAIL_LINES = 8


class EngineCrashed(EngineError):
    """The engine process ended while it had work; `message` says how and what it printed last."""

    def __init__(self, message: str, exit_code: int | None, last_lines: tuple[str, ...]) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.last_lines = last_lines


class EngineLink(Protocol):
    """Where the local backend's jobs run."""

    def submit(self, job: wire.Job) -> None: ...

    def check(self) -> None:
        """Raise EngineCrashed when the engine died while it had no job (said once)."""

    def abort(self, job_id: int) -> None: ...

    def next_event(self, timeout: float) -> wire.Event | None:
        """The next event, None when none came within `timeout` or `wake` was called; raises
        EngineCrashed when the engine died."""

    def wake(self) -> None:
        """End a `next_event` wait now (from any thread), so its caller looks at its stop flag."""

    def close(self) -> None: ...


class _Woken:
    """What `wake()` puts into an events queue: no event, a reason to look at the stop flag."""


_WOKEN = _Woken()

_job_ids = itertools.count(1)


def next_job_id() -> int:
    return next(_job_ids)


class EngineProcess:
    """One engine child; started on the first job, started again after a crash."""

    def __init__(self, doing: Callable[[], str] = lambda: "running the model") -> None:
        self._doing = doing  # for the crash message: "loading X", "writing a reply"
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self._send_lock = threading.Lock()
        # None: the child's end of the pipe closed
        self._events: queue.Queue[wire.Event | _Woken | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._stderr_path = ""
        self._closing = False
        # The last lines of llama.cpp's own log (forwarded by the child), for a crash message.
        self._llama_lines: deque[str] = deque(maxlen=STDERR_TAIL_LINES)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def stderr_path(self) -> str:
        """Where the running child's stderr goes (empty when none runs)."""
        return self._stderr_path

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def submit(self, job: wire.Job) -> None:
        self.check()  # it died between jobs: say so (the model is gone) instead of quietly starting another
        if not self.running:
            self._start()
        self._send(job)

    def check(self) -> None:
        if self._process is not None and not self._process.is_alive():
            crash = self._crash()
            self._process = None  # told once: the next job starts a fresh engine
            raise crash

    def abort(self, job_id: int) -> None:
        with contextlib.suppress(OSError, ValueError):  # already gone: there is nothing left to stop
            self._send(wire.Abort(job_id))

    def next_event(self, timeout: float) -> wire.Event | None:
        try:
            event = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(event, _Woken):
            return None
        if event is None:
            crash = self._crash()
            self._process = None  # told once: the next job starts a fresh engine
            raise crash
        return event

    def wake(self) -> None:
        self._events.put(_WOKEN)

    def close(self) -> None:
        """Ask the child to exit, then terminate, then kill it: bounded however stuck it is."""
        self._closing = True
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError, ValueError):
                self._send(wire.Shutdown())
            process.join(SHUTDOWN_GRACE_S)
            if process.is_alive():
                log.warning("The engine process did not exit in %.0f s; terminating it", SHUTDOWN_GRACE_S)
                process.terminate()
                process.join(TERMINATE_GRACE_S)
            if process.is_alive():
                process.kill()
                process.join()
        self._end_connection()
        self._closing = False

    # ---- the child -------------------------------------------------------------------

    def _start(self) -> None:
        self._end_connection()
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        descriptor, self._stderr_path = tempfile.mkstemp(prefix="glassbox-engine-", suffix=".stderr")
        os.close(descriptor)
        process = context.Process(
            target=host.main,
            args=(theirs, self._stderr_path, logging.getLogger().getEffectiveLevel()),
            name="glassbox-engine",
            daemon=True,
        )
        started = time.perf_counter()
        process.start()
        theirs.close()  # ours alone now: the child's death reads as end-of-file
        self._process, self._connection = process, ours
        self._events = queue.Queue()
        self._llama_lines.clear()
        self._reader = threading.Thread(target=self._read, args=(ours,), name="engine-events", daemon=True)
        self._reader.start()
        ready = self.next_event(START_TIMEOUT_S)
        if not isinstance(ready, wire.Ready):
            self.close()
            raise EngineError(
                fill(
                    N_("The engine process did not start within {seconds} s."),
                    seconds=f"{START_TIMEOUT_S:.0f}",
                )
            )
        log.info("Engine process %d started in %.2f s", ready.pid, time.perf_counter() - started)

    def _send(self, message: object) -> None:
        connection = self._connection
        if connection is None:
            raise OSError("the engine process is not running")
        with self._send_lock:
            connection.send(message)

    def _read(self, connection: Connection) -> None:
        """Log records are re-logged here at once; everything else goes to the queue.

        Only the owner's thread waits for the process (in `_crash` and `close`): two threads
        reaping one child race, and the loser takes a dead process for a live one.
        """
        while True:
            try:
                event = connection.recv()
            except (EOFError, OSError):
                break
            if isinstance(event, wire.Log):
                event.emit()
                if event.logger == "llama.cpp":
                    self._llama_lines.append(event.message)
            else:
                self._events.put(event)
        if not self._closing:
            self._events.put(None)

    def _crash(self) -> EngineCrashed:
        """What ended the child (which closed its end of the pipe); it is reaped here, and ends."""
        process = self._process
        code = None
        if process is not None:
            process.join(SHUTDOWN_GRACE_S)
            if process.is_alive():  # it closed the pipe but lingers: it is of no use any more
                process.kill()
                process.join()
            code = process.exitcode
        # What C code printed right before dying (an assert's reason), else llama.cpp's last log lines.
        lines = self._stderr_tail() or tuple(self._llama_lines)
        if code is not None and code < 0:
            message = describe_crash(-code, self._doing())
        else:
            message = f"The engine process ended unexpectedly (exit code {code}) while {self._doing()}."
        if lines:
            message += " Last lines from llama.cpp: " + " | ".join(lines)
        log.error("%s", message)
        return EngineCrashed(message, code, lines)

    def _stderr_tail(self) -> tuple[str, ...]:
        try:
            with open(self._stderr_path, encoding="utf-8", errors="replace") as file:
                tail = deque((line.rstrip() for line in file if line.strip()), maxlen=STDERR_TAIL_LINES)
        except OSError:
            return ()
        return tuple(tail)

    def _end_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
        reader, self._reader = self._reader, None
        if reader is not None and reader is not threading.current_thread():
            reader.join()
        if self._stderr_path:
            with contextlib.suppress(OSError):
                Path(self._stderr_path).unlink()
            self._stderr_path = ""


class InProcessEngine:
    """The same jobs and events on a thread of this process, with any Engine (a fake in tests)."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.session = EngineSession(engine)
        self._aborts = host.Aborts()
        self._events: queue.Queue[wire.Event | _Woken] = queue.Queue()
        self._thread: threading.Thread | None = None

    @property
    def engine(self) -> Engine:
        return self.session.engine

    def submit(self, job: wire.Job) -> None:
        self._join()
        self._thread = threading.Thread(
            target=host.run_job, args=(self.session, job, self._aborts, self._events.put), name="engine-in-process"
        )
        self._thread.start()

    def check(self) -> None:
        pass  # a thread of this process cannot die on its own

    def abort(self, job_id: int) -> None:
        self._aborts.abort(job_id)

    def next_event(self, timeout: float) -> wire.Event | None:
        try:
            event = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        return None if isinstance(event, _Woken) else event

    def wake(self) -> None:
        self._events.put(_WOKEN)

    def close(self) -> None:
        self._join()
        self.session.close()

    def _join(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
