"""One child-process host for every child: jobs run through the service's table, in a process of its own."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from app.core.support.child_messages import Failed, Finished, Job
from app.core.support.child_process import (
    SHUTDOWN_GRACE_S,
    START_METHODS,
    TERMINATE_GRACE_S,
    ChildProcess,
    next_job_id,
    start_children_by,
)
from tests.core.support.child_services import (
    ArithmeticCrashed,
    ArithmeticFailed,
    ArithmeticService,
    Die,
    Double,
    LeaveAGrandchild,
    Rewind,
)

log = logging.getLogger(__name__)
WAIT_S = 60.0  # a bound on a wait that a working child answers at once


@pytest.fixture(params=START_METHODS)
def child(request: pytest.FixtureRequest) -> Iterator[ChildProcess]:
    """A child started as the app starts it (spawn), and as the test suite does (forkserver)."""
    start_children_by(request.param)
    process = ChildProcess(ArithmeticService(), lambda: "doing sums", log)
    yield process
    process.close()
    start_children_by("forkserver")


def answer(child: ChildProcess, work: object) -> Finished | Failed:
    job = Job(next_job_id(), work)
    child.submit(job)
    event = child.next_event(WAIT_S)
    assert isinstance(event, Finished | Failed) and event.job == job.id
    return event


def test_a_job_is_answered_by_its_operation_in_a_process_of_its_own(child: ChildProcess) -> None:
    finished = answer(child, Double(21))

    assert finished == Finished(finished.job, 42)
    assert child.pid is not None and child.pid != os.getpid()


def test_an_unknown_operation_fails_naming_it_and_the_child_serves_on(child: ChildProcess) -> None:
    failed = answer(child, Rewind())

    assert isinstance(failed, Failed)
    error = failed.error.to_exception()
    assert isinstance(error, ArithmeticFailed) and "Rewind" in str(error)
    assert isinstance(answer(child, Double(2)), Finished)


@pytest.mark.expected_log(__name__, logging.ERROR, r"ended \(-9\) while doing sums")
def test_a_child_that_dies_is_the_services_crash_error_said_once_then_a_fresh_child(child: ChildProcess) -> None:
    answer(child, Double(1))
    first = child.pid

    with pytest.raises(ArithmeticCrashed) as crash:
        answer(child, Die())

    assert crash.value.exit_code == -signal.SIGKILL
    after = answer(child, Double(4))
    assert isinstance(after, Finished) and after.value == 8
    assert child.pid not in (None, first)


@pytest.mark.expected_log(__name__, logging.ERROR, r"ended \(-9\) while doing sums")
def test_a_job_sent_to_a_child_not_yet_known_dead_is_the_services_crash_error(
    child: ChildProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer(child, Double(1))
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)
    # Dead, but not yet said so: a forkserver reaps its child and reports it a moment later.
    monkeypatch.setattr(type(child), "running", property(lambda _self: True))
    monkeypatch.setattr(child, "check", lambda: None)
    deadline = time.monotonic() + WAIT_S
    with pytest.raises(ArithmeticCrashed) as crash:
        while time.monotonic() < deadline:  # the pipe breaks once the child's end of it is gone
            child.submit(Job(next_job_id(), Double(2)))
            time.sleep(0.01)
    assert crash.value.exit_code == -signal.SIGKILL
    monkeypatch.undo()
    after = answer(child, Double(4))
    assert isinstance(after, Finished) and after.value == 8


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a grandchild that holds the pipe needs fork")
def test_closing_never_waits_on_a_pipe_a_grandchild_still_holds_open(child: ChildProcess) -> None:
    grandchild = answer(child, LeaveAGrandchild(seconds=WAIT_S))
    assert isinstance(grandchild, Finished)
    failures: list[threading.ExceptHookArgs] = []
    previous, threading.excepthook = threading.excepthook, failures.append
    try:
        started = time.monotonic()
        child.close()  # the child exits; its grandchild keeps the pipe open, so no end-of-file comes from there
        closing_s = time.monotonic() - started
    finally:
        threading.excepthook = previous
        os.kill(grandchild.value, signal.SIGKILL)
    assert closing_s < SHUTDOWN_GRACE_S + TERMINATE_GRACE_S
    assert failures == []  # the reader ended on end-of-file, not on a closed handle


def test_a_child_that_cannot_open_what_it_serves_says_why_and_ends() -> None:
    process = ChildProcess(ArithmeticService(refuse_to_open="the model file is damaged"), lambda: "starting", log)
    try:
        with pytest.raises(ArithmeticFailed, match="the model file is damaged"):
            process.submit(Job(next_job_id(), Double(1)))
        assert not process.running
    finally:
        process.close()


def test_a_start_method_that_does_not_exist_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="teleport"):
        start_children_by("teleport")
