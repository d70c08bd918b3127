"""One host for every child process: it opens what its service serves, then runs jobs from one table.

A child process (the engine, the embedding model) is started by `ChildProcess`
(child_process.py) with multiprocessing's spawn, so nothing of the window's Qt state is
inherited; `main` is its entry point. A `ChildService` says what the child serves: `open`
makes the session (the object that owns the model), `operations` maps each kind of work to
the function that runs it, `report` turns an error into what crosses the pipe. A job of a
kind the table lacks fails with the service's error naming it; nothing falls back to
another operation.

Two threads in the child: the reader takes every message off the pipe, sets the running
job's abort flag the moment an `Abort` for it arrives, and queues jobs; the main thread runs
the jobs in order and sends their events back. A job the service runs `alongside` the others
(a reply in one of the engine's parallel slots) gets a thread of its own instead, so several
such jobs, and the ordered ones, run at once. The child's stderr goes to a file the parent
reads when the child dies: native code (an assert in llama.cpp) prints its reason there,
and nowhere else, right before abort().
"""

from __future__ import annotations

import abc
import logging
import os
import queue
import signal
import threading
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from typing import Any, Generic, Protocol, TypeVar

from app.core.support.child_messages import START_JOB, Abort, ErrorReport, Failed, Finished, Job, Log, Ready, Shutdown

log = logging.getLogger(__name__)

Send = Callable[[object], None]  # an event to the parent


class Session(Protocol):
    """What a service opens in the child: it owns the model and frees it on close."""

    def close(self) -> None: ...


SessionT = TypeVar("SessionT", bound=Session)

# An operation: (session, the job's work, the job's id, its abort flag, send an event) -> the job's result.
Operation = Callable[[SessionT, Any, int, threading.Event, Send], Any]


class ChildService(abc.ABC, Generic[SessionT]):
    """What one kind of child process serves; pickled to the child, so it holds only plain fields."""

    name: str  # "engine": names the process, its threads, its stderr file and its log lines
    operations: Mapping[type, Operation[SessionT]]  # every operation, by the type of a job's work

    @abc.abstractmethod
    def open(self) -> SessionT:
        """In the child, before it says Ready: load what it serves. An error here ends the child."""

    def alongside(self, session: SessionT, work: object) -> bool:
        """Whether a job of `work` runs on a thread of its own, beside the jobs that run in order (replies
        the session writes in parallel slots); the others run one at a time on the main thread."""
        return False

    @abc.abstractmethod
    def report(self, error: BaseException) -> ErrorReport:
        """`error` as it crosses the pipe."""

    @abc.abstractmethod
    def unknown(self, name: str) -> Exception:
        """The error for a job whose work is of a kind the table lacks, naming it."""

    @abc.abstractmethod
    def not_started(self, seconds: float) -> Exception:
        """The error for a child that did not say Ready within `seconds`."""

    @abc.abstractmethod
    def crashed(self, exit_code: int | None, doing: str, last_lines: tuple[str, ...]) -> Exception:
        """The error for a child that ended while `doing` something (with what it printed last)."""


class Aborts:
    """Which jobs run now, and the abort flag each watches; an Abort may come before its job starts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[int, threading.Event] = {}
        self._started = 0  # the highest job id started so far: ids grow, so an Abort at or below it came late
        self._asked: set[int] = set()

    def start(self, job: int) -> threading.Event:
        with self._lock:
            flag = self._running[job] = threading.Event()
            self._started = max(self._started, job)
            if job in self._asked:
                self._asked.discard(job)
                flag.set()
        return flag

    def abort(self, job: int) -> None:
        with self._lock:
            flag = self._running.get(job)
            if flag is not None:
                flag.set()
            elif job > self._started:  # an Abort for a job that ended is dropped; one for a later job is kept
                self._asked.add(job)

    def end(self, job: int) -> None:
        with self._lock:
            self._running.pop(job, None)


def run_job(service: ChildService[SessionT], session: SessionT, job: Job, aborts: Aborts, send: Send) -> None:
    """Run one job through the service's table; its events, then one Finished or Failed, go to `send`."""
    flag = aborts.start(job.id)
    kind = type(job.work).__name__
    try:
        operation = service.operations.get(type(job.work))
        if operation is None:
            raise service.unknown(kind)
        send(Finished(job.id, operation(session, job.work, job.id, flag, send)))
    except Exception as error:
        report = service.report(error)
        if report.unexpected:
            log.exception("The %s failed on %s", service.name, kind)
        send(Failed(job.id, report))
    finally:
        aborts.end(job.id)


class _Channel:
    """The child's end of the pipe; sends come from the job thread and from logging."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._lock = threading.Lock()

    def send(self, message: object) -> None:
        with self._lock:
            self._connection.send(message)

    def receive(self) -> object:
        return self._connection.recv()


class _ForwardLogs(logging.Handler):
    def __init__(self, channel: _Channel) -> None:
        super().__init__()
        self._channel = channel

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:
                message += "\n" + logging.Formatter().formatException(record.exc_info)
            self._channel.send(Log(record.name, record.levelno, message))
        except (OSError, ValueError):  # the parent is gone; nobody is left to read it
            pass


def main(connection: Connection, stderr_path: str, log_level: int, service: ChildService[Any]) -> None:
    """The child's entry point (the target of the spawned process)."""
    _send_stderr_to(stderr_path)
    # Ctrl+C in a terminal reaches the whole process group: the parent turns it into a stop,
    # which arrives here as an Abort.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    channel = _Channel(connection)
    root = logging.getLogger()
    root.handlers[:] = [_ForwardLogs(channel)]
    root.setLevel(log_level)
    try:
        session = service.open()
    except Exception as error:  # a missing, damaged or unloadable model: said in one line, and the child ends
        channel.send(Failed(START_JOB, service.report(error)))
        return
    aborts = Aborts()
    jobs: queue.Queue[Job | None] = queue.Queue()
    reader = threading.Thread(target=_read, args=(channel, jobs, aborts), name=f"{service.name}-reader", daemon=True)
    reader.start()
    channel.send(Ready(os.getpid()))
    beside: list[threading.Thread] = []
    try:
        while (job := jobs.get()) is not None:
            if service.alongside(session, job.work):
                beside = [thread for thread in beside if thread.is_alive()]
                thread = threading.Thread(
                    target=run_job, args=(service, session, job, aborts, channel.send), name=f"{service.name}-{job.id}"
                )
                thread.start()
                beside.append(thread)
            else:
                run_job(service, session, job, aborts, channel.send)
    finally:
        session.close()  # ends the jobs beside (their session's slots close), then frees the model
        for thread in beside:
            thread.join()


def _read(channel: _Channel, jobs: queue.Queue[Job | None], aborts: Aborts) -> None:
    while True:
        try:
            message = channel.receive()
        except (EOFError, OSError):  # the parent closed its end (or died): finish up
            break
        if isinstance(message, Abort):
            aborts.abort(message.id)
        elif isinstance(message, Job):
            jobs.put(message)
        elif isinstance(message, Shutdown):
            break
    jobs.put(None)


def _send_stderr_to(path: str) -> None:
    """Point file descriptor 2 at `path`, so what C code prints before dying is kept."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(descriptor, 2)
    os.close(descriptor)
