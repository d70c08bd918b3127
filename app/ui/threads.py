"""The one worker-thread wrapper: every QThread Glassbox starts is a `WorkerThread`.

A worker QObject lives in its own QThread and takes requests as queued signals. Stopping
has one rule for all of them:

- `request_stop()` sets the worker's stop and cancel flags (read by the worker between
  steps), then ends the thread's event loop; it never waits.
- `wait(timeout_ms)` says whether the thread ended in time; a thread that did not is
  never destroyed while it runs (Qt would abort the process: "QThread: Destroyed while
  thread is still running"). Every started thread stays referenced in this module until
  it has really ended, whoever dropped it.
- When the application quits (`aboutToQuit`, and at interpreter exit), every thread still
  running is asked to stop and waited for, however long it takes, with a log line naming a
  thread that is slow; exit is never an abort.

`running_threads()` names the threads still running, for the tests' thread-leak guard.

A worker's signal reaches a widget only through a method of a QObject that lives in the GUI
thread: PySide runs any other slot (a lambda, a `functools.partial`, a plain function) in the
thread its sender lives in, the worker's, even with `Qt.QueuedConnection`, and a widget
touched there can crash the window. `connect_in_thread_of` runs such a slot in its context's
thread instead.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QThread, QTimer, SignalInstance

log = logging.getLogger(__name__)

SLOW_EXIT_MS = 5000  # at exit, a thread still running after this long is named in the log
RECHECK_MS = 100
EXITING = -1  # what QEventLoop.exec() returns at once while the application is exiting

_registry: set[WorkerThread] = set()  # started and not yet seen to have ended
_registry_lock = threading.Lock()
_quit_hooked: set[int] = set()  # the applications whose aboutToQuit joins the threads


class _QtThread(QThread):
    """Runs the event loop, then the owner's clean-up, in the thread itself."""

    def __init__(self, name: str, on_end: Callable[[], None] | None) -> None:
        super().__init__()
        self.setObjectName(name)
        self._on_end = on_end

    def run(self) -> None:
        self.exec()
        if self._on_end is not None:
            try:
                self._on_end()
            except Exception:  # a failed clean-up must not hide that the thread ended
                log.exception("Cleaning up after the %s thread failed", self.objectName())


class WorkerThread:
    """A worker QObject, the QThread it lives in, and the flags that stop it.

    `flags`: events the worker checks between steps (stop a reply, cancel a load or a hash);
    `request_stop()` sets them all, in the order given (a closing flag first, see `rearm`).
    `end_loop`: how the event loop is ended, when quitting it at once would drop requests
    that must still run (the storage thread's pending writes);
    the default quits it, so queued requests not yet started are dropped. `on_end` runs in
    the thread after its event loop has ended (close what the worker opened there).
    """

    def __init__(
        self,
        worker: QObject,
        name: str,
        *,
        flags: Iterable[threading.Event] = (),
        end_loop: Callable[[], None] | None = None,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        self.worker = worker
        self.name = name
        self._flags = tuple(flags)
        self._end_loop = end_loop
        self._stop_requested = False
        self._thread = _QtThread(name, on_end)
        worker.moveToThread(self._thread)

    @property
    def finished(self) -> SignalInstance:
        """Emitted when the thread has ended (queued to receivers in other threads)."""
        return self._thread.finished

    def start(self) -> None:
        _hook_application_quit()
        with _registry_lock:
            _prune()
            _registry.add(self)
        self._thread.start()

    def request_stop(self) -> None:
        """Set every flag and end the event loop; returns at once, even if the worker is busy."""
        self._stop_requested = True
        for flag in self._flags:
            flag.set()
        if not self._thread.isRunning():
            return
        self._end_event_loop()

    def _end_event_loop(self) -> None:
        if self._end_loop is not None:
            self._end_loop()
        else:
            self._thread.quit()

    def wait(self, timeout_ms: int | None = None) -> bool:
        """Wait for the thread to end (without a timeout: until it does); True once it has ended.

        Without a timeout it waits in steps of RECHECK_MS, ending the event loop again at each
        step once a stop was asked for: a loop that started only after the first request (a
        thread started while the window was closing) ends too. Between the steps this thread
        runs Python again, so its signal handlers (Ctrl+C, a test's time limit) are not held off."""
        if timeout_ms is not None:
            ended = self._thread.wait(timeout_ms)
        else:
            while not self._thread.wait(RECHECK_MS):
                if self._stop_requested:
                    self._end_event_loop()
            ended = True
        if ended:
            with _registry_lock:
                _registry.discard(self)
        return ended

    def is_running(self) -> bool:
        return self._thread.isRunning()


class JobThreads:
    """A feature's thread for its one request at a time: each request gets a thread of its own,
    which ends with its answer (`end()`), so nothing idles while the window is open."""

    def __init__(self) -> None:
        self.current: WorkerThread | None = None  # the thread of the last request

    def start(self, worker: QObject, name: str, flags: Iterable[threading.Event] = ()) -> None:
        self.current = WorkerThread(worker, name, flags=flags)
        self.current.start()

    def is_running(self) -> bool:
        return self.current is not None and self.current.is_running()

    def end(self) -> None:
        """The answer came: let the thread end (its flags are set too)."""
        if self.current is not None:
            self.current.request_stop()

    def shutdown(self) -> bool:
        """Stop a request in progress and wait for its thread; True once it has ended."""
        if self.current is None:
            return True
        self.current.request_stop()
        return self.current.wait()


def wait_keeping_events(threads: Iterable[WorkerThread]) -> None:
    """Wait for the threads to end while this (the GUI) thread goes on handling events.

    The window keeps painting, and what the threads send before they end (the last streamed
    tokens, the final reply) is delivered and handled, not left in the queue.
    """
    running = list(threads)
    loop = QEventLoop()
    # A thread emits `finished` a moment before it stops counting as running: look again
    # at each `finished` and every RECHECK_MS as well, so that moment cannot be missed.
    recheck = QTimer()
    recheck.setInterval(RECHECK_MS)
    recheck.timeout.connect(loop.quit)
    recheck.start()
    for thread in running:
        thread.finished.connect(loop.quit)  # queued: the loop lives in this thread
    while any(thread.is_running() for thread in running):
        if loop.exec() == EXITING:  # the application is leaving its event loops: wait below instead
            break
    recheck.stop()
    for thread in running:
        thread.finished.disconnect(loop.quit)
        thread.wait()
    QCoreApplication.sendPostedEvents()  # what they posted last, should the loop have ended first


class _ThreadRelay(QObject):
    """Calls one slot in the thread this relay lives in: its context's (a child of it, it ends with it)."""

    def __init__(self, context: QObject, slot: Callable[..., object]) -> None:
        super().__init__(context)
        self._slot = slot

    def deliver(self, *args: Any) -> None:
        self._slot(*args)


def connect_in_thread_of(signal: SignalInstance, context: QObject, slot: Callable[..., object]) -> None:
    """Connect `slot` (a lambda, a partial, a function) so that it runs in `context`'s thread, whoever emits.

    The delivery is queued when another thread emits, as for a method of `context`, and the
    connection ends when `context` is destroyed, so the slot never meets a deleted widget.
    """
    signal.connect(_ThreadRelay(context, slot).deliver)


def rearm(flag: threading.Event, closing: threading.Event) -> None:
    """Clear a stop or cancel flag as a new job starts, unless the thread is closing.

    `closing` is set before the other flags, so whichever way a job's start and a close
    cross, the job finds its flag set and does not run to its end while the app waits.
    """
    flag.clear()
    if closing.is_set():
        flag.set()


def running_threads() -> list[str]:
    """The names of the Glassbox threads still running."""
    with _registry_lock:
        _prune()
        return [thread.name for thread in _registry]


def join_all_threads() -> None:
    """Ask every thread still running to stop and wait for each; a slow one is named in the log."""
    with _registry_lock:
        _prune()
        threads = list(_registry)
    for thread in threads:
        thread.request_stop()
    for thread in threads:
        if not thread.wait(SLOW_EXIT_MS):
            log.warning("Waiting for the %s thread to stop before Glassbox exits", thread.name)
            thread.wait()


def _prune() -> None:
    """Let go of threads that have ended (called with the lock held)."""
    _registry.difference_update([thread for thread in _registry if thread._thread.isFinished()])


def _hook_application_quit() -> None:
    app = QCoreApplication.instance()
    if app is not None and id(app) not in _quit_hooked:
        _quit_hooked.add(id(app))
        app.aboutToQuit.connect(join_all_threads)


atexit.register(join_all_threads)
