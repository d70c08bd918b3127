"""A test fails when Qt says a QObject or a widget was used from a thread it does not live in.

Such a use is the way a worker thread crashes the window (a slot that runs on the worker,
touching a widget), and Qt's only trace of it is a message: "QObject::setParent: Cannot set
parent, new parent is in a different thread" and its kin. pytest-qt's `qt_log_level_fail`
fails a test on a warning, but only one its `qt_log_ignore` lets through, only while the
test itself runs and only at WARNING or above; this guard fails it on these messages at any
level, from any thread, while its fixtures are set up, while it runs and while they are torn
down, whatever the test ignores. The messages are passed on to the handler that was there
before (pytest-qt's capture while the test runs), or written to stderr as Qt would.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Generator
from pathlib import Path

import pytest
from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

PYTEST_QT = "pytestqt"  # the package's folder
Handler = Callable[[QtMsgType, QMessageLogContext, str], None]

# What Qt says when an object is used outside its thread (qobject.cpp, qwidget.cpp, qpixmap.cpp …).
OFF_THREAD = re.compile(
    r"in a different thread"  # setParent, creating children, sending events
    r"|owned by a different thread"
    r"|from another thread"  # starting or stopping a timer, enabling a socket notifier
    r"|(?:outside|in) the GUI thread"  # pixmaps, widgets
    r"|threads started with QThread"
    r"|is not the object's thread"  # moveToThread from elsewhere
)


class OffThreadMessages:
    """Keeps Qt's messages about objects used outside their thread, from whichever thread they come."""

    def __init__(self) -> None:
        self._messages: list[str] = []
        self._taken = threading.Lock()
        self._next: Handler | None = None

    def install(self) -> Handler | None:
        """Handle Qt's messages from now on, passing each to the handler installed until now; returns that one."""
        previous: Handler | None = qInstallMessageHandler(self.handle)
        if previous != self.handle:  # installed already (no pytest-qt capture came in between): keep its successor
            self._next = previous
        return self._next

    def handle(self, kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if OFF_THREAD.search(message) and not _said_for_pytest_qt():
            with self._taken:
                self._messages.append(f"on thread {threading.current_thread().name}: {message}")
        if self._next is not None:
            self._next(kind, context, message)
        else:
            sys.stderr.write(message + "\n")

    def take(self) -> list[str]:
        """The messages since the last take."""
        with self._taken:
            messages, self._messages = self._messages, []
        return messages


def _said_for_pytest_qt() -> bool:
    """Whether pytest-qt's own code made Qt say it: `qtbot.waitSignal` on a worker's signal stops its timer
    on the worker's thread (harmless: the timer fires later and finds the wait over).

    Only the innermost Python frame counts, the one whose call into Qt brought the message: a slot
    of the app's that runs while pytest-qt waits is the app's own."""
    caller = sys._getframe(1).f_back  # above `handle`: the Python code running on the thread Qt speaks from
    return caller is not None and PYTEST_QT in Path(caller.f_code.co_filename).parts


def _describe(messages: list[str]) -> str:
    lines = "\n".join(f"  {message}" for message in messages)
    return f"Qt objects were used outside their thread (a worker's signal reaching a widget directly?):\n{lines}"


_messages = OffThreadMessages()


# The hooks are this module's own, registered as the suite's conftest loads it: before pytest-qt
# registers its capture, so each hook below runs after pytest-qt's and before the fixtures'.


def pytest_runtest_setup(item: pytest.Item) -> None:
    _messages.take()  # whatever came between tests belongs to none of them
    _messages.install()  # on top of pytest-qt's capture, which passes nothing on


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if call.when == "call":
        messages = _messages.take()
        if messages and report.passed:
            report.outcome = "failed"
            report.longrepr = _describe(messages)
        elif messages:
            report.sections.append(("Qt objects used outside their thread", _describe(messages)))
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    # pytest-qt put its predecessor back as the test ended: listen again until the fixtures are torn down.
    previous = _messages.install()
    try:
        yield
    finally:
        qInstallMessageHandler(previous)
    messages = _messages.take()
    if messages:
        pytest.fail(_describe(messages), pytrace=False)
