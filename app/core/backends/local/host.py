"""The engine child process: owns llama.cpp and the model, runs one job at a time.

Started by `EngineProcess` (multiprocessing's spawn, so nothing of the window's Qt state
is inherited). Two threads: the reader takes every message off the pipe, sets the running
job's abort flag the moment an `Abort` for it arrives, and queues jobs; the main thread
runs the jobs in order through an `EngineSession` and sends their events back. The
child's stderr goes to a file the window reads when the child dies: an assert in
llama.cpp prints its reason there, and nowhere else, right before abort().
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from app.core.backends.local import wire
from app.core.backends.local.session import EngineSession, LoadListener
from app.core.inference.llama_log import LOGGER as LLAMA
from app.core.support.formatting import fill
from app.core.support.timed_batch import TimedBatch
from app.core.support.user_text import N_
from app.core.types.errors import EngineError
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece

log = logging.getLogger(__name__)

# The reply's pieces go to the window 30 times a second at most. Each message wakes three of
# its threads (the pipe's reader, the LLM worker, the GUI); measured in the whole window on two
# cores, that is about 400 µs of the reply's time per message, so 60 messages a second instead
# of 30 cost 100 µs a token more at 100 tokens/s. Text that grows 30 times a second still reads
# as streaming.
PIECE_BATCH_S = 1 / 30

Send = Callable[[object], None]  # an event to the window


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
            self._channel.send(wire.Log(record.name, record.levelno, message))
        except (OSError, ValueError):  # the window is gone; nobody is left to read it
            pass


class Aborts:
    """Which job runs now, and the abort flag it watches; an Abort may come before its job starts."""

    def __init__(self) -> None:
        self.flag = threading.Event()
        self._lock = threading.Lock()
        self._running = -1
        self._asked: set[int] = set()

    def start(self, job: int) -> threading.Event:
        with self._lock:
            self._running = job
            self.flag.clear()
            if job in self._asked:
                self._asked.discard(job)
                self.flag.set()
        return self.flag

    def abort(self, job: int) -> None:
        with self._lock:
            if job == self._running:
                self.flag.set()
            else:
                self._asked.add(job)

    def end(self) -> None:
        with self._lock:
            # Job ids grow: an Abort for a job that ended is dropped; one for a later job is kept.
            self._asked = {job for job in self._asked if job > self._running}
            self._running = -1


def main(connection: Connection, stderr_path: str, log_level: int) -> None:
    """The child's entry point (the target of the spawned process)."""
    _send_stderr_to(stderr_path)
    # Ctrl+C in a terminal reaches the whole process group: the window's process (or the CLI)
    # turns it into a stop, which arrives here as an Abort.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    channel = _Channel(connection)
    root = logging.getLogger()
    root.handlers[:] = [_ForwardLogs(channel)]
    root.setLevel(log_level)
    # Every line of llama.cpp's own log is sent: the window keeps the last ones for a crash
    # message, and its own logger levels decide what is shown or written.
    LLAMA.setLevel(logging.DEBUG)
    session = EngineSession()
    aborts = Aborts()
    jobs: queue.Queue[wire.Job | None] = queue.Queue()
    reader = threading.Thread(target=_read, args=(channel, jobs, aborts), name="engine-reader", daemon=True)
    reader.start()
    channel.send(wire.Ready(os.getpid()))
    try:
        while (job := jobs.get()) is not None:
            run_job(session, job, aborts, channel.send)
    finally:
        session.close()


def _read(channel: _Channel, jobs: queue.Queue[wire.Job | None], aborts: Aborts) -> None:
    while True:
        try:
            message = channel.receive()
        except (EOFError, OSError):  # the window closed its end (or died): finish up
            break
        if isinstance(message, wire.Abort):
            aborts.abort(message.id)
        elif isinstance(message, wire.Job):
            jobs.put(message)
        elif isinstance(message, wire.Shutdown):
            break
    jobs.put(None)


def run_job(session: EngineSession, job: wire.Job, aborts: Aborts, send: Send) -> None:
    """Run one job; its events, then one Finished or Failed, go to `send`."""
    flag = aborts.start(job.id)
    try:
        send(wire.Finished(job.id, _run(session, job, flag, send)))
    except Exception as error:
        info = wire.ErrorInfo.of(error)
        if info.kind == "unexpected":
            log.exception("The engine failed on %s", type(job.work).__name__)
        send(wire.Failed(job.id, info))
    finally:
        aborts.end()


def _load(session: EngineSession, work: wire.Load, job_id: int, flag: threading.Event, send: Send) -> Any:
    listener = LoadListener(
        stage=lambda name: send(wire.Stage(job_id, name)),
        progress=lambda fraction: send(wire.Progress(job_id, fraction)),
        fallback_step=lambda step: send(wire.FallbackStepped(job_id, step)),
    )
    return session.load(work.config, listener, flag)


def _reply(session: EngineSession, work: wire.Reply, job_id: int, flag: threading.Event, send: Send) -> Any:
    events = session.stream_chat(
        work.messages, work.params, flag, work.token_probabilities, work.grammar, work.record, work.prompt_ids
    )
    return _send_reply(job_id, events, send)


def _fork(session: EngineSession, work: wire.Fork, job_id: int, flag: threading.Event, send: Send) -> Any:
    events = session.stream_fork(
        work.messages, work.reply, work.position, work.forced, work.params, flag, work.token_probabilities
    )
    return _send_reply(job_id, events, send)


def _complete(session: EngineSession, work: wire.Complete, job_id: int, flag: threading.Event, send: Send) -> Any:
    events = session.stream_completion(work.prompt, work.params, flag, work.token_probabilities, work.grammar)
    return _send_reply(job_id, events, send)


def _unload(session: EngineSession, _work: wire.Unload, _job_id: int, _flag: threading.Event, _send: Send) -> Any:
    session.close()


# Every operation the engine runs, by the type of its job's work: one entry per member of wire.Work.
OPERATIONS: dict[type, Callable[[EngineSession, Any, int, threading.Event, Send], Any]] = {
    wire.Load: _load,
    wire.Reply: _reply,
    wire.Fork: _fork,
    wire.Complete: _complete,
    wire.Plan: lambda session, work, _id, _flag, _send: session.plan(work.request),
    wire.Inspect: lambda session, work, _id, _flag, _send: session.inspect(work.request),
    wire.CountTokens: lambda session, work, _id, _flag, _send: session.count_tokens(work.text),
    wire.BeamSearch: lambda session, work, _id, flag, _send: session.beam_search(work.messages, work.settings, flag),
    wire.Replay: lambda session, work, _id, flag, _send: session.replay(work.record, work.messages, work.changed, flag),
    wire.Unload: _unload,
}


def _run(session: EngineSession, job: wire.Job, flag: threading.Event, send: Send) -> Any:
    """Run the job's operation; a job of a kind the table lacks is an error that names it (never an Unload)."""
    operation = OPERATIONS.get(type(job.work))
    if operation is None:
        raise EngineError(fill(N_("The engine has no operation called {name}."), name=type(job.work).__name__))
    return operation(session, job.work, job.id, flag, send)


def _send_reply(job_id: int, events: Iterator[ReplyEvent], send: Send) -> ReplyDone | None:
    """Send a reply's pieces in batches; the ReplyDone that ends it is the job's result."""
    batch: TimedBatch[TokenPiece] = TimedBatch(
        PIECE_BATCH_S,
        lambda pieces: send(wire.Pieces(job_id, "".join(p.text for p in pieces), tuple(p.token_id for p in pieces))),
    )
    done: ReplyDone | None = None
    for event in events:
        if isinstance(event, TokenPiece):
            batch.add(event)
        else:
            done = event
    batch.flush()
    return done


def _send_stderr_to(path: str) -> None:
    """Point file descriptor 2 at `path`, so what C code prints before dying is kept."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(descriptor, 2)
    os.close(descriptor)
