"""The suite's off-thread guard fails a test in which Qt says an object was used outside its thread."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

OFF_THREAD_TESTS = """
import threading

import pytest
from PySide6.QtCore import QObject, QThread, QTimer, Signal
from PySide6.QtWidgets import QWidget


def adopt_off_thread(parent: QObject) -> None:
    \"\"\"What a slot running on a worker does when it builds a widget's child.\"\"\"
    worker = threading.Thread(target=QObject, args=(parent,), name="a-worker")
    worker.start()
    worker.join()


def test_a_widget_given_a_child_on_a_worker_thread(qtbot):
    adopt_off_thread(QWidget())


@pytest.mark.qt_log_ignore(".*", extend=False)
@pytest.mark.qt_log_level_fail("NO")
def test_the_same_with_every_qt_message_ignored(qtbot):
    adopt_off_thread(QWidget())


@pytest.fixture
def adopted_at_teardown(qtbot):
    parent = QWidget()
    yield
    adopt_off_thread(parent)


def test_a_child_given_off_thread_while_the_fixtures_are_torn_down(adopted_at_teardown):
    pass


def test_a_widget_used_on_its_own_thread(qtbot):
    QObject(QWidget())


class Announcer(QObject):
    asked = Signal()
    said = Signal()

    def __init__(self):
        super().__init__()
        self.asked.connect(self.answer)

    def answer(self):
        self.said.emit()


def test_waiting_with_pytest_qt_for_a_signal_a_worker_emits(qtbot):
    # pytest-qt stops its timer on the thread that emits: its own affair, not the test's
    announcer, thread = Announcer(), QThread()
    announcer.moveToThread(thread)
    thread.start()
    QTimer.singleShot(0, announcer.asked.emit)  # once the wait below has started its timer
    with qtbot.waitSignal(announcer.said, timeout=10_000):
        pass
    thread.quit()
    thread.wait()
"""


def test_the_guard_fails_tests_whose_objects_were_used_outside_their_thread(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_off_thread=OFF_THREAD_TESTS)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q", "-p", "tests.helpers.qt_threads")
    result.assert_outcomes(passed=3, failed=2, errors=1)
    failed = {line.split("::")[-1].split(" ")[0] for line in result.outlines if line.startswith("FAILED")}
    assert failed == {"test_a_widget_given_a_child_on_a_worker_thread", "test_the_same_with_every_qt_message_ignored"}
    result.stdout.re_match_lines(
        [
            r".*ERROR at teardown of test_a_child_given_off_thread_while_the_fixtures_are_torn_down.*",
            re.escape("Qt objects were used outside their thread") + ".*",
            r"  on thread a-worker: QObject: Cannot create children for a parent that is in a different thread\.",
        ]
    )
