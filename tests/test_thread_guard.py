"""The suite's thread-leak guard fails a test that leaves a thread running."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

LEAKY_TESTS = """
import threading
from PySide6.QtCore import QObject
from tests.helpers.threads import no_leaked_threads  # the guard under test

stop = threading.Event()


def test_leaves_a_python_thread_running():
    threading.Thread(target=stop.wait, name="forgotten-worker").start()


def test_leaves_a_qthread_running(qapp):
    from app.ui.threads import WorkerThread
    global thread
    thread = WorkerThread(QObject(), "forgotten-qthread")
    thread.start()


def test_cleans_up_after_itself():
    stop.set()
    thread.request_stop()
    thread.wait()
"""


def test_the_guard_names_leaked_python_and_qt_threads(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_leaky=LEAKY_TESTS)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=3, errors=2)  # the guard fails the teardown of the two leaky tests
    result.stdout.re_match_lines(
        [
            r".*ERROR at teardown of test_leaves_a_python_thread_running.*",
            re.escape("E       Failed: test left threads running: ['forgotten-worker']"),
            r".*ERROR at teardown of test_leaves_a_qthread_running.*",
            re.escape("E       Failed: test left threads running: ['QThread forgotten-qthread']"),
        ]
    )
