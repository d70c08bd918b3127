"""A small service for the child host's tests: no model, two operations, and ways to fail on purpose.

It lives in a module of its own because spawn pickles the service by its class's import path."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any

from app.core.support.child_host import ChildService, Operation, Send
from app.core.support.child_messages import ErrorReport


class ArithmeticFailed(Exception):
    pass


class ArithmeticCrashed(Exception):
    def __init__(self, message: str, exit_code: int | None) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Double:
    value: int


@dataclass(frozen=True)
class Die:
    """Take the child down with SIGKILL, as the system does when memory runs out."""


@dataclass(frozen=True)
class LeaveAGrandchild:
    """Fork a process that holds the child's end of the pipe for `seconds` after the child is gone."""

    seconds: float


@dataclass(frozen=True)
class Rewind:
    """A kind of work the table was never taught."""


@dataclass(frozen=True)
class Refusal:
    message: str
    unexpected: bool = False

    def to_exception(self) -> Exception:
        return ArithmeticFailed(self.message)


class Calculator:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def _double(_session: Calculator, work: Double, _job: int, _flag: threading.Event, _send: Send) -> Any:
    return work.value * 2


def _die(_session: Calculator, _work: Die, _job: int, _flag: threading.Event, _send: Send) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)


def _leave_a_grandchild(
    _session: Calculator, work: LeaveAGrandchild, _job: int, _flag: threading.Event, _send: Send
) -> Any:
    pid = os.fork()
    if pid == 0:  # the grandchild: every descriptor of the child, the pipe among them
        time.sleep(work.seconds)
        os._exit(0)
    return pid


OPERATIONS: dict[type, Operation[Calculator]] = {Double: _double, Die: _die, LeaveAGrandchild: _leave_a_grandchild}


class ArithmeticService(ChildService[Calculator]):
    name = "arithmetic"
    operations = OPERATIONS

    def __init__(self, refuse_to_open: str = "") -> None:
        self.refuse_to_open = refuse_to_open

    def open(self) -> Calculator:
        if self.refuse_to_open:
            raise ArithmeticFailed(self.refuse_to_open)
        return Calculator()

    def report(self, error: BaseException) -> ErrorReport:
        return Refusal(str(error), unexpected=not isinstance(error, ArithmeticFailed))

    def unknown(self, name: str) -> Exception:
        return ArithmeticFailed(f"no operation called {name}")

    def not_started(self, seconds: float) -> Exception:
        return ArithmeticFailed(f"not started within {seconds:.0f} s")

    def crashed(self, exit_code: int | None, doing: str, last_lines: tuple[str, ...]) -> Exception:
        return ArithmeticCrashed(f"the arithmetic process ended ({exit_code}) while {doing}", exit_code)
