"""The one worker-thread wrapper: stopping never waits, and a running thread is never destroyed."""

from __future__ import annotations

import gc
import logging
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QThread, Signal, Slot
from pytestqt.qtbot import QtBot

from app.ui import threads
from app.ui.threads import (
    WorkerThread,
    connect_in_thread_of,
    join_all_threads,
    rearm,
    running_threads,
    wait_keeping_events,
)

ROOT = Path(__file__).resolve().parents[2]
WATCHDOG_S = 60  # releases a stubborn worker should a test get stuck, so it fails instead of hanging


class Stubborn(QObject):
    """A worker whose one job ignores its stop flag: it ends only when released."""

    workRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.stop = threading.Event()
        self.inside = threading.Event()
        self.release = threading.Event()
        self.workRequested.connect(self._work)

    @Slot()
    def _work(self) -> None:
        self.inside.set()
        self.release.wait()


@pytest.fixture
def stubborn(qapp: object) -> Iterator[Stubborn]:
    worker = Stubborn()
    watchdog = threading.Timer(WATCHDOG_S, worker.release.set)
    watchdog.daemon = True
    watchdog.start()
    yield worker
    watchdog.cancel()
    worker.release.set()
    join_all_threads()


def busy(worker: Stubborn) -> WorkerThread:
    thread = WorkerThread(worker, "stubborn", flags=(worker.stop,))
    thread.start()
    worker.workRequested.emit()
    worker.inside.wait()
    return thread


def test_request_stop_sets_every_flag_and_returns_while_the_worker_is_still_busy(stubborn: Stubborn) -> None:
    thread = busy(stubborn)
    thread.request_stop()
    assert stubborn.stop.is_set()
    assert thread.is_running()
    stubborn.release.set()
    assert thread.wait()


def test_a_thread_that_outlives_wait_stays_referenced_until_it_really_ends(stubborn: Stubborn) -> None:
    thread = busy(stubborn)
    thread.request_stop()
    assert not thread.wait(10)
    del thread
    gc.collect()  # nobody holds the wrapper now; destroying its QThread would abort the process
    assert running_threads() == ["stubborn"]
    stubborn.release.set()
    join_all_threads()
    assert running_threads() == []


@pytest.mark.expected_log("app.ui.threads", logging.WARNING, r"Waiting for the stubborn thread to stop")
def test_at_exit_every_thread_is_stopped_and_waited_for_and_a_slow_one_is_named(
    stubborn: Stubborn, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    idle = WorkerThread(QObject(), "idle")
    idle.start()
    busy(stubborn)

    class ReleaseWhenNamed(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            stubborn.release.set()

    # Long enough for the idle thread to stop on a loaded machine, short for a test: the stubborn one never
    # stops on its own, so it is always the slow one, and is released once named.
    monkeypatch.setattr(threads, "SLOW_EXIT_MS", 1000)
    handler = ReleaseWhenNamed(logging.WARNING)
    threads.log.addHandler(handler)
    try:
        with caplog.at_level(logging.WARNING, logger=threads.log.name):
            join_all_threads()
    finally:
        threads.log.removeHandler(handler)
    assert running_threads() == []
    assert not idle.is_running()
    assert [record.getMessage() for record in caplog.records] == [
        "Waiting for the stubborn thread to stop before Glassbox exits"
    ]


def test_a_job_starting_while_its_thread_closes_keeps_its_stop_flag_set() -> None:
    closing, stop = threading.Event(), threading.Event()
    stop.set()  # left from the last job
    rearm(stop, closing)
    assert not stop.is_set()
    closing.set()  # request_stop sets the closing flag before the others
    rearm(stop, closing)
    assert stop.is_set()


class Pieces(QObject):
    """Sends pieces of text from its thread, as the LLM worker streams tokens."""

    sendRequested = Signal(int)
    piece = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.sending = threading.Event()
        self.sendRequested.connect(self._send)

    @Slot(int)
    def _send(self, count: int) -> None:
        self.sending.set()
        for index in range(count):
            self.piece.emit(f"p{index}")


class Collector(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.received: list[str] = []

    @Slot(str)
    def collect(self, text: str) -> None:
        self.received.append(text)


def test_waiting_keeping_events_delivers_everything_the_thread_sent_before_it_ended(qtbot: QtBot) -> None:
    worker, collector = Pieces(), Collector()
    worker.piece.connect(collector.collect)
    thread = WorkerThread(worker, "pieces")
    thread.start()
    worker.sendRequested.emit(200)
    worker.sending.wait()
    thread.request_stop()  # the job under way ends first
    wait_keeping_events([thread])
    assert not thread.is_running()
    assert collector.received == [f"p{index}" for index in range(200)]


class Announcer(QObject):
    """A worker that says two things from its own thread."""

    announceRequested = Signal()
    said = Signal(str, object)  # what, the thread that said it

    def __init__(self) -> None:
        super().__init__()
        self.announceRequested.connect(self._announce)

    @Slot()
    def _announce(self) -> None:
        self.said.emit("ready", QThread.currentThread())


def test_a_lambda_connected_in_the_thread_of_its_context_runs_there_whoever_emits(qtbot: QtBot) -> None:
    worker, context = Announcer(), QObject()
    heard: list[tuple[str, QThread, QThread]] = []  # what, the thread that said it, the thread that heard it
    connect_in_thread_of(worker.said, context, lambda text, by: heard.append((text, by, QThread.currentThread())))
    thread = WorkerThread(worker, "announcer")
    thread.start()
    try:
        worker.announceRequested.emit()
        qtbot.waitUntil(lambda: heard != [])
    finally:
        thread.request_stop()
        assert thread.wait()
    [(text, sender, hearer)] = heard
    assert text == "ready" and sender is not QThread.currentThread() and hearer is QThread.currentThread()


def test_a_slot_connected_in_the_thread_of_a_destroyed_context_is_no_longer_called(qtbot: QtBot) -> None:
    worker, context = Announcer(), QObject()
    heard: list[str] = []
    connect_in_thread_of(worker.said, context, lambda text, _sender: heard.append(text))
    with qtbot.waitSignal(context.destroyed):
        context.deleteLater()
    worker.announceRequested.emit()  # the worker lives in this thread here: it says it at once
    assert heard == []


def test_clean_up_runs_in_the_thread_after_its_event_loop_ended(qapp: object) -> None:
    ran_in: list[QThread] = []
    thread = WorkerThread(QObject(), "cleaned", on_end=lambda: ran_in.append(QThread.currentThread()))
    thread.start()
    thread.request_stop()
    assert thread.wait()
    assert len(ran_in) == 1 and ran_in[0] is not QThread.currentThread()


QUIT_WITH_A_STUBBORN_THREAD = """
import logging, sys, threading
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot
from app.ui import threads


class Stubborn(QObject):
    workRequested = Signal()

    def __init__(self):
        super().__init__()
        self.inside = threading.Event()
        self.release = threading.Event()
        self.workRequested.connect(self._work)

    @Slot()
    def _work(self):
        self.inside.set()
        self.release.wait()
        print("worker ended", flush=True)


class ReleaseWhenNamed(logging.Handler):
    def emit(self, record):
        worker.release.set()


app = QCoreApplication(sys.argv)
threads.SLOW_EXIT_MS = 1
threads.log.addHandler(ReleaseWhenNamed())
worker = Stubborn()
thread = threads.WorkerThread(worker, "stubborn")
thread.start()
worker.workRequested.emit()
worker.inside.wait()
thread.request_stop()
print("ended in time:", thread.wait(10), flush=True)
del thread  # only the registry holds the thread now
QTimer.singleShot(0, app.quit)
code = app.exec()
print("event loop returned", flush=True)
sys.exit(code)
"""


def test_quitting_the_application_waits_for_a_thread_nobody_waited_for() -> None:
    process = subprocess.run(
        [sys.executable, "-c", QUIT_WITH_A_STUBBORN_THREAD], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert "Destroyed while thread" not in process.stderr
    assert process.returncode == 0, process.stderr
    assert process.stdout.splitlines() == ["ended in time: False", "worker ended", "event loop returned"]
