"""The engine child process seen from the window: the service it runs, and the two links to it.

`EngineService` is what the engine child serves through the shared child host
(app/core/support/child_host.py): an `EngineSession` and the table of operations in host.py.
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

import logging
import queue
import threading
from collections.abc import Callable
from typing import Protocol

from app.core.backends.local import host, wire
from app.core.backends.local.session import EngineSession
from app.core.inference.crash_report import describe_exit
from app.core.inference.engine import Engine
from app.core.inference.llama_log import LOGGER as LLAMA
from app.core.support.child_host import Aborts, ChildService, run_job
from app.core.support.child_messages import ErrorReport, Job
from app.core.support.child_process import WOKEN, ChildProcess
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError

log = logging.getLogger(__name__)


class EngineCrashed(EngineError):
    """The engine process ended while it had work; `message` says how and what it printed last."""

    def __init__(self, message: str, exit_code: int | None, last_lines: tuple[str, ...]) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        self.last_lines = last_lines


class EngineService(ChildService[EngineSession]):
    """The engine child: one EngineSession (which loads a model on a Load job) and the engine's operations."""

    name = "engine"
    operations = host.OPERATIONS

    def open(self) -> EngineSession:
        # Every line of llama.cpp's own log is sent: the window keeps the last ones for a crash
        # message, and its own logger levels decide what is shown or written.
        LLAMA.setLevel(logging.DEBUG)
        return EngineSession()

    def alongside(self, session: EngineSession, work: object) -> bool:
        return isinstance(work, wire.SlotStates) or (isinstance(work, wire.Reply | wire.Complete) and session.in_slots)

    def report(self, error: BaseException) -> ErrorReport:
        return wire.ErrorInfo.of(error)

    def unknown(self, name: str) -> Exception:
        return EngineError(fill(N_("The engine has no operation called {name}."), name=name))

    def not_started(self, seconds: float) -> Exception:
        return EngineError(fill(N_("The engine process did not start within {seconds} s."), seconds=f"{seconds:.0f}"))

    def crashed(self, exit_code: int | None, doing: str, last_lines: tuple[str, ...]) -> Exception:
        return EngineCrashed(describe_exit(self.name, exit_code, doing, last_lines), exit_code, last_lines)


class EngineLink(Protocol):
    """Where the local backend's jobs run."""

    def submit(self, job: Job) -> None: ...

    def check(self) -> None:
        """Raise EngineCrashed when the engine died while it had no job (said once)."""

    def abort(self, job_id: int) -> None: ...

    def next_event(self, timeout: float) -> wire.Event | None:
        """The next event, None when none came within `timeout` or `wake` was called; raises
        EngineCrashed when the engine died."""

    def wake(self) -> None:
        """End a `next_event` wait now (from any thread), so its caller looks at its stop flag."""

    def close(self) -> None: ...


class EngineProcess(ChildProcess):
    """One engine child; started on the first job, started again after a crash."""

    def __init__(self, doing: Callable[[], str] = lambda: "running the model") -> None:
        # `doing`, for the crash message: "loading X", "writing a reply"
        super().__init__(EngineService(), doing, log)


class InProcessEngine:
    """The same jobs and events on a thread of this process, with any Engine (a fake in tests)."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.session = EngineSession(engine)
        self._service = EngineService()
        self._aborts = Aborts()
        self._events: queue.Queue[object] = queue.Queue()
        self._thread: threading.Thread | None = None

    @property
    def engine(self) -> Engine:
        return self.session.engine

    def submit(self, job: Job) -> None:
        self._join()
        self._thread = threading.Thread(
            target=run_job,
            args=(self._service, self.session, job, self._aborts, self._events.put),
            name="engine-in-process",
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
        return None if event is WOKEN else event  # type: ignore[return-value]

    def wake(self) -> None:
        self._events.put(WOKEN)

    def close(self) -> None:
        self._join()
        self.session.close()

    def _join(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
