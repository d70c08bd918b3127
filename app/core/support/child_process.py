"""A child process seen from its parent: start it, send it jobs, read its events, end it.

`ChildProcess` runs one `ChildService` (child_host.py) in a child of its own, started by
multiprocessing's spawn on the first job and started again after the child died. Its events
arrive through a queue, read with a timeout so the caller can watch its stop flag meanwhile;
`wake` ends such a wait at once. Log records of the child are logged here as they arrive.

When the child dies, `next_event` (or the next `submit`, for a death between jobs) raises the
service's `crashed` error, built from how it ended and the last lines it wrote: to its
stderr (where native code prints an assert's reason right before it aborts), else the last
records of the logger `tail_logger`. The death is said once: the next job starts a fresh child.
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
from typing import Any

from app.core.support import child_host
from app.core.support.child_host import ChildService
from app.core.support.child_messages import Abort, Failed, Job, Log, Ready, Shutdown
from app.core.support.reads import end_reads

START_TIMEOUT_S = 120.0  # a cold start on a slow disk imports llama.cpp and numpy, then opens the model
SHUTDOWN_GRACE_S = 3.0  # for the child to free its model and exit on its own
TERMINATE_GRACE_S = 2.0  # after SIGTERM, before SIGKILL
STDERR_TAIL_LINES = 8
START_METHODS = ("spawn", "forkserver")


class _Woken:
    """What `wake()` puts into an events queue: no event, a reason to look at the stop flag."""


WOKEN = _Woken()

_job_ids = itertools.count(1)


def next_job_id() -> int:
    """A job id no other job of this process has (ids grow; 0 is the child's own start)."""
    return next(_job_ids)


class ChildProcess:
    """One child serving `service`; `doing` says what it is busy with, for the message when it dies."""

    def __init__(
        self,
        service: ChildService[Any],
        doing: Callable[[], str],
        logger: logging.Logger,
        tail_logger: str = "llama.cpp",
    ) -> None:
        self.service = service
        self._doing = doing
        self._log = logger  # the owner's logger: a death is logged where its readers look for it
        self._tail_logger = tail_logger
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self._send_lock = threading.Lock()
        # None: the child's end of the pipe closed
        self._events: queue.Queue[object] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._stderr_path = ""
        self._closing = False
        self._tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)

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

    def submit(self, job: Job) -> None:
        """Send `job`, starting the child first when none runs. Raises the service's errors: `crashed`
        when the child died since the last job (said instead of quietly starting another),
        `not_started`, or what the child reported when it could not open what it serves."""
        self.check()
        if not self.running:
            self._start()
        try:
            self._send(job)
        except (BrokenPipeError, ConnectionResetError):
            # It died since `check`, or had died before it and was not yet known to be dead: a forkserver's
            # child is reaped, and its end told, by the forkserver, a moment after the child ends.
            raise self._crash() from None

    def check(self) -> None:
        """Raise the service's `crashed` error when the child died while it had no job (said once)."""
        if self._process is not None and not self._process.is_alive():
            raise self._crash()

    def abort(self, job_id: int) -> None:
        with contextlib.suppress(OSError, ValueError):  # already gone: there is nothing left to stop
            self._send(Abort(job_id))

    def next_event(self, timeout: float) -> Any:
        """The next event, None when none came within `timeout` or `wake` was called; raises the
        service's `crashed` error when the child died."""
        try:
            event = self._events.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(event, _Woken):
            return None
        if event is None:
            raise self._crash()
        return event

    def wake(self) -> None:
        self._events.put(WOKEN)

    def close(self) -> None:
        """Ask the child to exit, then terminate, then kill it: bounded however stuck it is."""
        self._closing = True
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError, ValueError):
                self._send(Shutdown())
            process.join(SHUTDOWN_GRACE_S)
            if process.is_alive():
                self._log.warning(
                    "The %s process did not exit in %.0f s; terminating it", self.service.name, SHUTDOWN_GRACE_S
                )
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
        name = self.service.name
        context = _start_context(self.service)
        ours, theirs = context.Pipe()
        descriptor, self._stderr_path = tempfile.mkstemp(prefix=f"glassbox-{name}-", suffix=".stderr")
        os.close(descriptor)
        process = context.Process(
            target=child_host.main,
            args=(theirs, self._stderr_path, logging.getLogger().getEffectiveLevel(), self.service),
            name=f"glassbox-{name}",
            daemon=True,
        )
        started = time.perf_counter()
        process.start()
        theirs.close()  # ours alone now: the child's death reads as end-of-file
        self._process, self._connection = process, ours
        self._events = queue.Queue()
        self._tail.clear()
        self._reader = threading.Thread(target=self._read, args=(ours,), name=f"{name}-events", daemon=True)
        self._reader.start()
        ready = self.next_event(START_TIMEOUT_S)
        if isinstance(ready, Failed):  # it could not open what it serves (and ends)
            self.close()
            raise ready.error.to_exception()
        if not isinstance(ready, Ready):
            self.close()
            raise self.service.not_started(START_TIMEOUT_S)
        self._log.info("The %s process %d started in %.2f s", name, ready.pid, time.perf_counter() - started)

    def _send(self, message: object) -> None:
        connection = self._connection
        if connection is None:
            raise OSError(f"the {self.service.name} process is not running")
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
            if isinstance(event, Log):
                event.emit()
                if event.logger == self._tail_logger:
                    self._tail.append(event.message)
            else:
                self._events.put(event)
        if not self._closing:
            self._events.put(None)

    def _crash(self) -> Exception:
        """What ended the child (which closed its end of the pipe); it is reaped here, and forgotten: the crash
        is told once, and the next job starts a fresh child."""
        process, self._process = self._process, None
        code = None
        if process is not None:
            process.join(SHUTDOWN_GRACE_S)
            if process.is_alive():  # it closed the pipe but lingers: it is of no use any more
                process.kill()
                process.join()
            code = process.exitcode
        # What native code printed right before dying (an assert's reason), else its logger's last lines.
        crash = self.service.crashed(code, self._doing(), self._stderr_tail() or tuple(self._tail))
        self._log.error("%s", crash)
        return crash

    def _stderr_tail(self) -> tuple[str, ...]:
        try:
            with open(self._stderr_path, encoding="utf-8", errors="replace") as file:
                tail = deque((line.rstrip() for line in file if line.strip()), maxlen=STDERR_TAIL_LINES)
        except OSError:
            return ()
        return tuple(tail)

    def _end_connection(self) -> None:
        """The reader ended, then the pipe closed. A pipe is not closed under its reader: the read in
        its thread goes on (on a pipe a grandchild of the child still holds, for ever) or fails on the
        closed handle. `end_reads` ends that read at once, as end-of-file."""
        connection, self._connection = self._connection, None
        reader, self._reader = self._reader, None
        if connection is not None:
            end_reads(connection)
        if reader is not None and reader is not threading.current_thread():
            reader.join()
        if connection is not None:
            connection.close()
        if self._stderr_path:
            with contextlib.suppress(OSError):
                Path(self._stderr_path).unlink()
            self._stderr_path = ""


class _StartMethod:
    """How this process starts its children (see `start_children_by`)."""

    name = "spawn"


def start_children_by(method: str) -> None:
    """Start later children by `method`: spawn (the app's way: a fresh interpreter each, nothing of
    the window's state), or forkserver, forked from one fresh interpreter that imported the host
    and the first service's module (the engine's imports llama.cpp) once. The test suite starts
    hundreds of engines and saves about a second each that way; both give a child with nothing of
    the window's Qt state."""
    if method not in START_METHODS:
        raise ValueError(f"a child starts by one of {', '.join(START_METHODS)}, not {method!r}")
    _StartMethod.name = method


def _start_context(
    service: ChildService[Any],
) -> multiprocessing.context.SpawnContext | multiprocessing.context.ForkServerContext:
    if _StartMethod.name == "spawn":
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([child_host.__name__, type(service).__module__])
    return context
